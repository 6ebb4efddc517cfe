#!/usr/bin/env python3
"""Runs the statistics and enumeration groups of the independent Python SMP client (`smpclient`,
`smp`) against an SMP server over UDP and prints what it got as one JSON object on standard
output, in the format of smpclient_os_group.py.

Used by Tests/SMPSimulatorTests/InteropSMPClientTests.swift against the virtual device:

    python smpclient_stat_enum.py --host 127.0.0.1 --port 40123
"""

from __future__ import annotations

import sys
from typing import Any

from smpclient import SMPClient
from smpclient.requests.enumeration_management import (
    CountSupportedGroups,
    GroupDetails,
    GroupId,
    ListSupportedGroups,
)
from smpclient.requests.statistics_management import GroupData, ListOfGroups

from smpclient_os_group import run, session


async def steps(client: SMPClient, results: dict[str, Any]) -> None:
    await run(client, "stat_list", ListOfGroups(), results)
    await run(client, "stat_read", GroupData(name="mgmt"), results)
    await run(client, "stat_unknown", GroupData(name="nope"), results)
    await run(client, "enum_count", CountSupportedGroups(), results)
    await run(client, "enum_list", ListSupportedGroups(), results)
    await run(client, "enum_single_0", GroupId(), results)
    await run(client, "enum_single_last", GroupId(index=2), results)
    await run(client, "enum_single_past", GroupId(index=3), results)
    await run(client, "enum_details", GroupDetails(), results)
    await run(client, "enum_details_some", GroupDetails(groups=(2,)), results)


if __name__ == "__main__":
    sys.exit(session(__doc__, steps))
