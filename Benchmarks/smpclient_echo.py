"""Echo round trips with smpclient (PyPI) over UDP, printed as one JSON line like smpctl-bench.

usage: smpclient_echo.py HOST PORT [COUNT] [CONCURRENCY] [PAYLOAD_BYTES]

smpclient allows one request in flight per client (its SMPClient.request awaits each response),
so concurrency > 1 is reported as not supported rather than faked.
"""
import asyncio
import json
import sys
import time

from smpclient import SMPClient
from smpclient.requests.os_management import EchoWrite
from smpclient.transport.udp import SMPUDPTransport


async def main() -> None:
    host, port = sys.argv[1], int(sys.argv[2])
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
    concurrency = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    payload = "x" * (int(sys.argv[5]) if len(sys.argv) > 5 else 8)
    if concurrency != 1:
        print(json.dumps({"tool": "smpclient", "concurrency": concurrency, "supported": False}))
        return
    transport = SMPUDPTransport()
    client = SMPClient(transport, host)
    await transport.connect(host, 5.0, port)
    for _ in range(50):
        await client.request(EchoWrite(d=payload))
    latencies = []
    start = time.perf_counter()
    for _ in range(count):
        sent = time.perf_counter()
        response = await client.request(EchoWrite(d=payload))
        latencies.append((time.perf_counter() - sent) * 1e6)
        assert response.r == payload, response
    seconds = time.perf_counter() - start
    await transport.disconnect()
    latencies.sort()
    pick = lambda p: latencies[min(len(latencies) - 1, int(len(latencies) * p))]
    print(json.dumps({
        "tool": "smpclient", "count": count, "concurrency": 1, "payload": len(payload), "seconds": round(seconds, 4),
        "rps": round(count / seconds, 1), "p50_us": round(pick(0.5), 1), "p99_us": round(pick(0.99), 1),
    }))


asyncio.run(main())
