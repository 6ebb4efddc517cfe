#!/usr/bin/env python3
"""Makes the SUIT files of the SUIT upgrade tests with cbor2 (pinned in
Tests/Scripts/requirements.txt): envelopes shaped as the IETF SUIT manifest draft and nRF Connect
SDK build them, and dfu_suit.zip packages like NCS suit_generate_dfu_zip().

Usage: make_suit_set.py OUTPUT_FOLDER

An envelope is CBOR tag 107 around {2: bstr(authentication wrapper), 3: bstr(manifest)}; the
wrapper is an array whose first element is bstr([-16, SHA-256 of the bstr-wrapped manifest, its
CBOR head included]); the manifest holds version 1, a sequence number (key 2), a common section
with the component and the class/vendor IDs, and an install sequence (suit-install, key 20) that
sets each payload's `file://NAME` URI and fetches it. check_envelope_cddl.py checks them against
the draft's CDDL. Signatures are left out (the devices under test do not check them).

Files: app-seq2.suit (asks for file://app.bin), plain-seq4.suit (asks for nothing),
bad-digest.suit (its digest does not match its manifest), dfu_suit.zip (root.suit with sequence
number 3 asking for file://app.bin and file://Rad.BIN, a cache image for partition 1, app.bin and
rad.bin), missing.zip (its envelope also asks for file://extra.bin, which the package lacks).

Prints one JSON object on standard output: {"files": {NAME: {"path", "size", "digest",
"sequence", "resources"}}} with the manifest digest in hex (null for packages' own entries).
"""

import hashlib
import json
import os
import random
import sys
import zipfile

import cbor2

VENDOR_ID = bytes.fromhex("7617daa571fd5a858f94e28d735ce9f4")  # uuid5(DNS, "nordicsemi.com")
CLASS_ID = bytes.fromhex("08c1b59955e85fbc9e767bc29ce1b04d")


def wrap(item):
    return cbor2.dumps(item)


def manifest(sequence, uris):
    components = [[b"MEM", b"\x02", (0x0E0AA000).to_bytes(4, "big"), (0x1000).to_bytes(4, "big")]]
    shared = [20, {1: VENDOR_ID, 2: CLASS_ID}, 1, 15, 2, 15]
    common = {2: components, 4: wrap(shared)}
    install = []
    for uri in uris:
        install += [20, {21: uri}, 21, 15]
    body = {1: 1, 2: sequence, 3: wrap(common)}
    if install:
        # suit-install is key 20 since draft -28 of the SUIT manifest (17 before), as NCS's
        # suit-generator writes it from v2.8.0.
        body[20] = wrap(install)
    return body


def envelope(sequence, uris, damage_digest=False):
    manifest_bstr = wrap(manifest(sequence, uris))
    # The digest covers the bstr-wrapped manifest: the encoded byte string, head included.
    digest = hashlib.sha256(cbor2.dumps(manifest_bstr)).digest()
    if damage_digest:
        digest = bytes([digest[0] ^ 0xFF]) + digest[1:]
    wrapper = wrap([wrap([-16, digest])])
    data = cbor2.dumps(cbor2.CBORTag(107, {2: wrapper, 3: manifest_bstr}))
    return data, digest.hex()


def blob(seed, size):
    generator = random.Random(seed)
    return bytes(generator.getrandbits(8) for _ in range(size))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    folder = sys.argv[1]
    os.makedirs(folder, exist_ok=True)
    files = {}

    def write(name, data, digest=None, sequence=None, resources=()):
        path = os.path.join(folder, name)
        with open(path, "wb") as f:
            f.write(data)
        files[name] = {"path": path, "size": len(data), "digest": digest, "sequence": sequence, "resources": list(resources)}

    for name, sequence, uris, damaged in [
        ("app-seq2.suit", 2, ["file://app.bin"], False),
        ("plain-seq4.suit", 4, [], False),
        ("bad-digest.suit", 5, [], True),
    ]:
        data, digest = envelope(sequence, uris, damaged)
        write(name, data, digest, sequence, uris)

    app = blob(1, 9000)
    rad = blob(2, 3000)
    cache = blob(3, 5000)

    def package(name, sequence, uris, parts):
        root, digest = envelope(sequence, uris)
        entries = [("root.suit", "suit-envelope", root, {})] + parts
        manifest_json = {"format-version": 0, "time": 1700000000, "files": []}
        path = os.path.join(folder, name)
        with zipfile.ZipFile(path, "w") as archive:
            for file_name, kind, data, extra in entries:
                archive.writestr(file_name, data)
                entry = {"type": kind, "board": "nrf54h20dk/nrf54h20/cpuapp", "soc": "nrf54h20", "load_address": 0,
                         "size": len(data), "file": file_name, "modtime": 1700000000}
                entry.update(extra)
                manifest_json["files"].append(entry)
            archive.writestr("manifest.json", json.dumps(manifest_json, indent=2))
        files[name] = {"path": path, "size": os.path.getsize(path), "digest": digest, "sequence": sequence, "resources": uris}

    parts = [
        ("dfu_cache_partition_1.bin", "cache", cache, {"partition": 1}),
        ("app.bin", "bin", app, {}),
        ("rad.bin", "bin", rad, {}),
    ]
    package("dfu_suit.zip", 3, ["file://app.bin", "file://Rad.BIN"], parts)
    package("missing.zip", 6, ["file://app.bin", "file://extra.bin"], parts[1:])
    for name, data in [("app.bin", app), ("rad.bin", rad), ("dfu_cache_partition_1.bin", cache)]:
        write(name, data)
    json.dump({"files": files}, sys.stdout)


if __name__ == "__main__":
    main()
