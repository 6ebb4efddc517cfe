#!/usr/bin/env python3
"""Runs the shell, settings and Zephyr basic groups of the independent Python SMP client
(`smpclient`, `smp`) against an SMP server over UDP and prints what it got as one JSON object
(same record format as smpclient_os_group.py, whose helpers it uses).

Used by Tests/SMPSimulatorTests/InteropShellSettingsTests.swift against the virtual device:

    python smpclient_shell_settings.py --host 127.0.0.1 --port 40123
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any

from smpclient import SMPClient
from smpclient.requests.settings_management import (
    CommitSettings,
    DeleteSetting,
    LoadSettings,
    ReadSetting,
    SaveSettings,
    WriteSetting,
)
from smpclient.requests.shell_management import Execute
from smpclient.requests.zephyr_management import EraseStorage
from smpclient_os_group import PortUDPTransport, run


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=1337)
    parser.add_argument("--timeout", type=float, default=3.0)
    arguments = parser.parse_args()

    client = SMPClient(PortUDPTransport(arguments.port), arguments.host, timeout_s=arguments.timeout)
    await client.connect()
    results: dict[str, Any] = {}
    try:
        await run(client, "shell_echo", Execute(argv=["echo", "from", "python"]), results)
        await run(client, "shell_unknown", Execute(argv=["frobnicate"]), results)
        await run(client, "shell_empty", Execute(argv=[]), results)
        await run(client, "read", ReadSetting(name="bt/name"), results)
        await run(client, "read_max", ReadSetting(name="bt/name", max_size=2), results)
        await run(client, "write", WriteSetting(name="app/py", val=b"\x01\x02"), results)
        await run(client, "read_written", ReadSetting(name="app/py"), results)
        await run(client, "commit", CommitSettings(), results)
        await run(client, "save", SaveSettings(), results)
        await run(client, "load", LoadSettings(), results)
        await run(client, "delete", DeleteSetting(name="app/py"), results)
        await run(client, "read_missing", ReadSetting(name="app/none"), results)
        await run(client, "read_no_root", ReadSetting(name="nope/x"), results)
        await run(client, "erase_storage", EraseStorage(), results)
    finally:
        await client.disconnect()
    json.dump(results, sys.stdout, indent=1, sort_keys=True)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
