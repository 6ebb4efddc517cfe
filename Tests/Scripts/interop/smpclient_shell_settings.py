#!/usr/bin/env python3
"""Runs the shell, settings and Zephyr basic groups of the independent Python SMP client
(`smpclient`, `smp`) against an SMP server over UDP and prints what it got as one JSON object
(same record format as smpclient_os_group.py, whose helpers it uses).

Used by Tests/SMPSimulatorTests/InteropShellSettingsTests.swift against the virtual device:

    python smpclient_shell_settings.py --host 127.0.0.1 --port 40123
"""

from __future__ import annotations

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
from smpclient_os_group import run, session


async def steps(client: SMPClient, results: dict[str, Any]) -> None:
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


if __name__ == "__main__":
    sys.exit(session(__doc__, steps))
