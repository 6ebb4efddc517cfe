"""Goodput of large echo requests with smpclient (PyPI) over a serial port, as one JSON line like
`smpctl-bench serial-goodput`.

usage: smpclient_serial_echo.py PATH BAUD [COUNT]

smpclient's SMPSerialTransport with its default fragmentation strategy (Auto) reads the device's
buf_size on connect and sends messages of up to buf_size - 4 bytes, so both tools send the same
380-byte requests to a Zephyr-default device. smpclient keeps one request in flight (its
request() awaits each response), so there is no window to set.
"""
import asyncio
import json
import sys
import time

from smp import packet as smppacket
from smpclient import SMPClient
from smpclient.requests.os_management import EchoWrite
from smpclient.transport.serial import SMPSerialTransport


async def main() -> None:
    path, baud = sys.argv[1], int(sys.argv[2])
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 60
    transport = SMPSerialTransport(baudrate=baud)
    client = SMPClient(transport, path)
    await client.connect(10.0)
    limit = transport.max_unencoded_size
    length = limit
    while len(EchoWrite(d="e" * length).BYTES) > limit:
        length -= 1
    text = "e" * length
    message = EchoWrite(d=text).BYTES
    for _ in range(3):
        await client.request(EchoWrite(d=text))
    start = time.perf_counter()
    for _ in range(count):
        response = await client.request(EchoWrite(d=text), timeout_s=10.0)
        assert response.r == text, response
    seconds = time.perf_counter() - start
    await client.disconnect()
    wire = sum(len(line) for line in smppacket.encode(message, line_length=128))
    ceiling = baud / 10 * len(message) / wire
    goodput = count * len(message) / seconds
    print(json.dumps({
        "tool": "smpclient", "baud": baud, "count": count, "window": 1, "message": len(message), "payload": length,
        "wire": wire, "seconds": round(seconds, 4), "goodput": round(goodput, 1), "ceiling": round(ceiling, 1),
        "ratio": round(goodput / ceiling, 4),
    }))


asyncio.run(main())
