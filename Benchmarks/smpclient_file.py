"""The transfer phase of `smpmgr file upload` / `smpmgr file download`, timed: smpclient's
SMPClient.upload_file / download_file (smpclient 7.3.0, what smpmgr 0.19.1 runs, without its
progress bar) over UDP to 127.0.0.1:1337, as smpmgr builds it. Prints one JSON line.

usage: smpclient_file.py upload LOCAL REMOTE
       smpclient_file.py download REMOTE LOCAL
"""
import asyncio
import json
import sys
import time

from smpclient import SMPClient
from smpclient.transport.udp import SMPUDPTransport


async def main() -> None:
    if len(sys.argv) != 4 or sys.argv[1] not in ("upload", "download"):
        sys.exit(__doc__)
    smp = SMPClient(SMPUDPTransport(), "127.0.0.1")
    await smp.connect()
    start = time.perf_counter()
    if sys.argv[1] == "upload":
        with open(sys.argv[2], "rb") as f:
            data = f.read()
        async for _ in smp.upload_file(data, sys.argv[3]):
            pass
    else:
        data = await smp.download_file(sys.argv[2])
        with open(sys.argv[3], "wb") as f:
            f.write(data)
    seconds = time.perf_counter() - start
    await smp.disconnect()
    print(json.dumps({"tool": "smpclient", "direction": sys.argv[1], "size": len(data), "seconds": round(seconds, 4)}))


asyncio.run(main())
