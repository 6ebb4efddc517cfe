#!/usr/bin/env python3
"""Runs the SUIT group (66, nRF Connect SDK) through the independent Python SMP client
(`smpclient`, `smp`) against an SMP server over UDP and prints what it got as one JSON object.

smp 4.2 / smpclient 7.3 have no SUIT requests, so they are declared here with smp's message base
classes, as the library intends for groups from 64 up (like its own `smp.user.intercreate`); the
header, CBOR and validation are smp's. The envelope comes from Tests/Scripts/suit/make_suit_set.py.

Used by Tests/SMPSimulatorTests/SUIT/InteropSUITTests.swift against the virtual SUIT device:

    python smpclient_suit_group.py --host 127.0.0.1 --port 40123
"""

from __future__ import annotations

import asyncio
import os
import sys
from typing import Any

from smp import error as smperr
from smp import message as smpmsg
from smpclient import SMPClient
from smpclient.generics import error_v1, error_v2, success
from smpclient.requests.os_management import BootloaderInformationRead

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "suit"))
from make_suit_set import envelope  # noqa: E402
from smpclient_os_group import session  # noqa: E402

SUIT_GROUP = 66


class SUITErrorV1(smperr.ErrorV1):
    _GROUP_ID = SUIT_GROUP


class SUITErrorV2(smperr.ErrorV2[int]):
    _GROUP_ID = SUIT_GROUP


def suit_message(base: type, command: int, name: str, **fields: Any) -> type:
    """A SUIT message class: `base` with group 66, `command` and pydantic `fields`."""
    annotations = {key: value[0] for key, value in fields.items()}
    defaults = {key: value[1] for key, value in fields.items() if len(value) > 1}
    namespace = {"__annotations__": annotations, "_GROUP_ID": SUIT_GROUP, "_COMMAND_ID": command, **defaults}
    return type(name, (base,), namespace)


def suit_request(base: type, command: int, name: str, response: type, **fields: Any) -> type:
    request = suit_message(base, command, name, **fields)
    request._Response = response
    request._ErrorV1 = SUITErrorV1
    request._ErrorV2 = SUITErrorV2
    return request


ManifestListResponse = suit_message(smpmsg.ReadResponse, 0, "ManifestListResponse", rc=(int,), manifests=(list,))
ManifestList = suit_request(smpmsg.ReadRequest, 0, "ManifestList", ManifestListResponse)
ManifestStateResponse = suit_message(
    smpmsg.ReadResponse, 1, "ManifestStateResponse", rc=(int,), class_id=(bytes | None, None), vendor_id=(bytes | None, None),
    digest=(bytes | None, None), digest_algorithm=(int | None, None), sequence_number=(int | None, None),
    semantic_version=(list | None, None), downgrade_prevention_policy=(int | None, None),
    independent_updateability_policy=(int | None, None), signature_verification_policy=(int | None, None),
    signature_check=(int | None, None))
ManifestState = suit_request(smpmsg.ReadRequest, 1, "ManifestState", ManifestStateResponse, role=(int,))
UploadResponse = suit_message(smpmsg.WriteResponse, 2, "EnvelopeUploadResponse", rc=(int,), off=(int,))
EnvelopeUpload = suit_request(
    smpmsg.WriteRequest, 2, "EnvelopeUpload", UploadResponse, off=(int,), data=(bytes,), len=(int | None, None),
    defer_install=(bool | None, None))
PollResponse = suit_message(
    smpmsg.ReadResponse, 3, "PollResponse", rc=(int,), stream_session_id=(int | None, None), resource_id=(bytes | None, None))
Poll = suit_request(smpmsg.ReadRequest, 3, "Poll", PollResponse)
ResourceResponse = suit_message(smpmsg.WriteResponse, 4, "ResourceUploadResponse", rc=(int,), off=(int,))
ResourceUpload = suit_request(
    smpmsg.WriteRequest, 4, "ResourceUpload", ResourceResponse, stream_session_id=(int,), off=(int,), data=(bytes,),
    len=(int | None, None))
CleanupResponse = suit_message(smpmsg.WriteResponse, 6, "CleanupResponse", rc=(int,))
Cleanup = suit_request(smpmsg.WriteRequest, 6, "Cleanup", CleanupResponse)


def hex_bytes(value: Any) -> Any:
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, dict):
        return {key: hex_bytes(item) for key, item in value.items()}
    if isinstance(value, list):
        return [hex_bytes(item) for item in value]
    return value


async def steps(client: SMPClient, results: dict[str, Any]) -> None:
    async def run(name: str, request: Any) -> Any:
        try:
            response = await client.request(request)
            kind = "success" if success(response) else "error_v2" if error_v2(response) else "error_v1" if error_v1(response) else "unknown"
            data = response.model_dump(mode="python", exclude={"header", "smp_data", "version", "sequence"})
            results[name] = {"kind": kind, "type": type(response).__name__, "version": int(response.header.version), "data": hex_bytes(data)}
            return response
        except Exception as exception:  # noqa: BLE001 - every failure is reported to the Swift test
            results[name] = {"exception": type(exception).__name__, "message": str(exception)}
            return None

    data, digest = envelope(8, ["file://app.bin"])
    results["envelope_digest"] = digest
    await run("bootloader", BootloaderInformationRead())
    await run("manifests", ManifestList())
    await run("state", ManifestState(role=0x20))
    await run("state_unknown", ManifestState(role=0x40))
    await run("upload_first", EnvelopeUpload(off=0, len=len(data), data=data[:40]))
    await run("upload_wrong_offset", EnvelopeUpload(off=80, data=data[80:90]))
    await run("upload_rest", EnvelopeUpload(off=40, data=data[40:]))
    poll = await run("poll", Poll())
    session = poll.stream_session_id if poll is not None and success(poll) else 0
    await run("resource", ResourceUpload(stream_session_id=session, off=0, len=4, data=b"\x01\x02\x03\x04"))
    await asyncio.sleep(0.3)
    await run("state_after", ManifestState(role=0x20))
    await run("cleanup", Cleanup())


if __name__ == "__main__":
    sys.exit(session(__doc__, steps))
