#!/usr/bin/env python3
"""Runs the OS group of the independent Python SMP client (`smpclient`, `smp`) against an SMP
server over UDP and prints what it got as one JSON object on standard output.

Used by Tests/SMPSimulatorTests/InteropSMPClientTests.swift against the virtual device:

    python smpclient_os_group.py --host 127.0.0.1 --port 40123

Every request is recorded as {"kind": "success" | "error_v1" | "error_v2", "type": <class>,
"version": <response header version>, "data": <fields>} or {"exception": <class>, "message": ...}.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any, Awaitable, Callable

from pydantic import Field
from smp import header as smphdr
from smp import message as smpmsg
from smp import os_management as smpos
from smpclient import SMPClient
from smpclient.generics import error_v1, error_v2, success
from smpclient.requests.os_management import (
    BootloaderInformationRead,
    DateTimeRead,
    DateTimeWrite,
    EchoWrite,
    MCUMgrParametersRead,
    OSApplicationInfoRead,
    ResetWrite,
    TaskStatisticsRead,
)
from smpclient.transport.udp import SMPUDPTransport


class PortUDPTransport(SMPUDPTransport):
    """`SMPUDPTransport` always connects to port 1337; this one to the port given."""

    def __init__(self, port: int) -> None:
        super().__init__()
        self._port = port

    async def connect(self, address: str, timeout_s: float, port: int = 1337) -> None:  # noqa: ARG002
        await super().connect(address, timeout_s, self._port)


class BootloaderModeReadResponse(smpmsg.ReadResponse):
    """Zephyr's answer to `query: "mode"`: `{"mode": int, "no-downgrade": bool (opt)}`.

    smp's own `BootloaderInformationReadResponse` requires a `bootloader` field, which Zephyr
    does not send with a mode answer, so the library cannot read it.
    """

    _GROUP_ID = smphdr.GroupId.OS_MANAGEMENT
    _COMMAND_ID = smphdr.CommandId.OSManagement.BOOTLOADER_INFO

    mode: int
    no_downgrade: bool | None = Field(alias="no-downgrade", default=None)


class BootloaderModeRead(smpos.BootloaderInformationReadRequest):
    _Response = BootloaderModeReadResponse
    _ErrorV1 = smpos.OSManagementErrorV1
    _ErrorV2 = smpos.OSManagementErrorV2


def describe(response: Any) -> dict[str, Any]:
    if success(response):
        kind = "success"
    elif error_v2(response):
        kind = "error_v2"
    elif error_v1(response):
        kind = "error_v1"
    else:  # pragma: no cover
        kind = "unknown"
    data = response.model_dump(
        mode="json", exclude={"header", "smp_data", "version", "sequence"}, by_alias=True
    )
    return {
        "kind": kind,
        "type": type(response).__name__,
        "version": int(response.header.version),
        "data": data,
    }


async def run(client: SMPClient, name: str, request: Any, results: dict[str, Any]) -> None:
    try:
        results[name] = describe(await client.request(request))
    except Exception as exception:  # noqa: BLE001 - every failure is reported to the Swift test
        results[name] = {"exception": type(exception).__name__, "message": str(exception)}


def session(description: str, steps: Callable[[SMPClient, dict[str, Any]], Awaitable[None]]) -> int:
    """Parses `--host`, `--port` and `--timeout`, connects over UDP, runs `steps` (which fill a
    dict of results by name) and prints the results as one JSON object."""
    return asyncio.run(_session(description, steps))


async def _session(description: str, steps: Callable[[SMPClient, dict[str, Any]], Awaitable[None]]) -> int:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=1337)
    parser.add_argument("--timeout", type=float, default=3.0)
    arguments = parser.parse_args()

    client = SMPClient(PortUDPTransport(arguments.port), arguments.host, timeout_s=arguments.timeout)
    await client.connect()
    results: dict[str, Any] = {}
    try:
        await steps(client, results)
    finally:
        await client.disconnect()
    json.dump(results, sys.stdout, indent=1, sort_keys=True)
    print()
    return 0


async def steps(client: SMPClient, results: dict[str, Any]) -> None:
    await run(client, "echo", EchoWrite(d="hello interop"), results)
    await run(client, "echo_v1", EchoWrite(d="old protocol", version=smphdr.Version.V1), results)
    await run(client, "params", MCUMgrParametersRead(), results)
    await run(client, "taskstat", TaskStatisticsRead(), results)
    await run(client, "info_default", OSApplicationInfoRead(), results)
    await run(client, "info_all", OSApplicationInfoRead(format="a"), results)
    await run(client, "info_invalid", OSApplicationInfoRead(format="z"), results)
    await run(client, "bootloader", BootloaderInformationRead(), results)
    await run(client, "bootloader_mode", BootloaderModeRead(query="mode"), results)
    await run(client, "bootloader_mode_stock", BootloaderInformationRead(query="mode"), results)
    await run(client, "bootloader_unknown_query", BootloaderModeRead(query="nothing"), results)
    await run(client, "datetime_unset", DateTimeRead(), results)
    await run(client, "datetime_set", DateTimeWrite(datetime="2025-07-14T08:30:05.250"), results)
    await run(client, "datetime_get", DateTimeRead(), results)
    await run(client, "datetime_invalid", DateTimeWrite(datetime="2025-13-14T08:30:05"), results)
    await run(client, "reset", ResetWrite(), results)


if __name__ == "__main__":
    sys.exit(session(__doc__, steps))
