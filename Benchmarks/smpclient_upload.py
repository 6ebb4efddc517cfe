"""The upload phase of `smpmgr image upload`, timed: smpclient's SMPClient.upload, the loop smpmgr
0.19.1 runs (without its progress bar), on the transport smpmgr builds from the same options.
Prints one JSON line.

usage: smpclient_upload.py udp FILE                       (127.0.0.1:1337, MTU 1500 as smpmgr)
       smpclient_upload.py serial FILE PORT BAUD LINE_LENGTH LINE_BUFFERS
       smpclient_upload.py ble FILE ADDRESS                 (bleak through BlueZ on the system bus)
"""
import asyncio
import json
import sys
import time
import warnings

from smpclient import SMPClient
from smpclient.transport.ble import SMPBLETransport
from smpclient.transport.serial import SMPSerialTransport
from smpclient.transport.udp import SMPUDPTransport


def client(arguments: list[str]) -> SMPClient:
    if arguments[0] == "udp":
        return SMPClient(SMPUDPTransport(), "127.0.0.1")
    if arguments[0] == "ble":
        return SMPClient(SMPBLETransport(), arguments[2])
    port, baud, line_length, line_buffers = arguments[2], *map(int, arguments[3:6])
    with warnings.catch_warnings():  # smpmgr 0.19.1 passes these deprecated parameters too
        warnings.simplefilter("ignore", DeprecationWarning)
        transport = SMPSerialTransport(
            max_smp_encoded_frame_size=line_length * line_buffers, line_length=line_length,
            line_buffers=line_buffers, baudrate=baud)
    return SMPClient(transport, port)


async def main() -> None:
    if (sys.argv[1:2], len(sys.argv)) not in ((["udp"], 3), (["ble"], 4), (["serial"], 7)):
        sys.exit(__doc__)
    with open(sys.argv[2], "rb") as f:
        image = f.read()
    smp = client(sys.argv[1:])
    await smp.connect()
    start = time.perf_counter()
    offset = 0
    async for offset in smp.upload(image, 0):
        pass
    seconds = time.perf_counter() - start
    await smp.disconnect()
    assert offset == len(image), offset
    print(json.dumps({"tool": "smpclient", "size": len(image), "seconds": round(seconds, 4),
                      "bytesPerSecond": round(len(image) / seconds, 1)}))


asyncio.run(main())
