#!/usr/bin/env python3
"""Makes the firmware files of the upgrade tests with imgtool (pinned in
Tests/Scripts/requirements.txt): MCUboot images and nRF Connect SDK-like dfu_application.zip
packages.

Usage: make_upgrade_set.py OUTPUT_FOLDER SLOT_SIZE FLASH_BASE

Prints one JSON object on standard output: {"files": {NAME: {"path", "version", "hash", "size",
"sha256"}}} where `hash` is the image hash (SHA-256 over header, body and protected TLVs) that the
device lists, computed here independently of imgtool.

Images (application image 0 unless said): app-v2 (unsigned, 0x200 header, ~40 KB), app-v3-signed
(ECDSA P-256, 0x200 header), app-v4-h20 (unsigned, 0x20 header), net-v2 (image 1), xip-slot0-v2 and
xip-slot1-v2 (ROM_FIXED at each slot's address, for DirectXIP), app-v1 (the same version the
virtual device starts with). Packages: multi.zip (app-v2 + net-v2, manifest like NCS
generate_zip.py), directxip.zip (the two xip images with "slot" keys and "version_MCUBOOT+XIP").
"""

import hashlib
import json
import os
import random
import subprocess
import sys
import zipfile


def imgtool(*arguments):
    result = subprocess.run([sys.executable, "-m", "imgtool.main", *arguments], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"imgtool {' '.join(arguments)} failed:\n{result.stdout}{result.stderr}")
    return result.stdout


def image_hash(path):
    info = json.loads(imgtool("dumpinfo", "-f", "json", path))
    header = info["header"]
    hashed = header["hdr_size"] + header["img_size"] + header["protected_tlv_size"]
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()[:hashed]).hexdigest()


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    out, slot_size, flash_base = sys.argv[1], int(sys.argv[2], 0), int(sys.argv[3], 0)
    os.makedirs(out, exist_ok=True)
    rng = random.Random(0xD1F)
    payload = os.path.join(out, "payload.bin")
    with open(payload, "wb") as f:
        f.write(bytes(rng.randrange(256) for _ in range(40_000)))
    key = os.path.join(out, "ecdsa-p256.pem")
    imgtool("keygen", "-k", key, "-t", "ecdsa-p256")
    common = ["--align", "4", "--slot-size", hex(slot_size), "--pad-header"]
    cases = {
        "app-v1": ("1.0.0", 0x200, []),
        "app-v2": ("2.0.0", 0x200, []),
        "app-v3-signed": ("3.0.0+7", 0x200, ["-k", key]),
        "app-v4-h20": ("4.0.0", 0x20, []),
        "net-v2": ("2.0.0+3", 0x200, []),
        "app-ramload-v2": ("2.0.0", 0x200, ["--load-addr", "0x20240000"]),
        "xip-slot0-v2": ("2.0.0", 0x200, ["--rom-fixed", hex(flash_base)]),
        "xip-slot1-v2": ("2.0.0", 0x200, ["--rom-fixed", hex(flash_base + slot_size)]),
    }
    files = {}
    for name, (version, header_size, extra) in cases.items():
        path = os.path.join(out, f"{name}.bin")
        imgtool("sign", "--version", version, "--header-size", hex(header_size), *common, *extra, payload, path)
        with open(path, "rb") as f:
            data = f.read()
        files[name] = {"path": path, "version": version, "hash": image_hash(path), "size": len(data),
                       "sha256": hashlib.sha256(data).hexdigest()}

    def package(name, entries):
        path = os.path.join(out, name)
        manifest = {"format-version": 0, "time": 1700000000, "name": name, "files": []}
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
            for image, fields in entries:
                archive.write(files[image]["path"], f"{image}.bin")
                entry = {"size": files[image]["size"], "file": f"{image}.bin", "modtime": 1700000000}
                entry.update(fields)
                manifest["files"].append(entry)
            archive.writestr("manifest.json", json.dumps(manifest, indent=2))
        files[name] = {"path": path, "version": None, "hash": None, "size": os.path.getsize(path), "sha256": None}

    package("multi.zip", [
        ("app-v2", {"type": "application", "board": "nrf5340dk/nrf5340/cpuapp", "soc": "nrf5340",
                    "load_address": flash_base, "image_index": "0", "slot_index_primary": "1",
                    "slot_index_secondary": "2", "version_MCUBOOT": "2.0.0"}),
        ("net-v2", {"type": "application", "board": "nrf5340dk/nrf5340/cpunet", "soc": "nrf5340",
                    "load_address": 0x01000000, "image_index": "1", "slot_index_primary": "3",
                    "slot_index_secondary": "4", "version": "3"}),
    ])
    package("directxip.zip", [
        ("xip-slot0-v2", {"type": "application", "board": "nrf52840dk/nrf52840", "soc": "nrf52840",
                          "load_address": flash_base, "image_index": "0", "slot": "0",
                          "version_MCUBOOT+XIP": "2.0.0"}),
        ("xip-slot1-v2", {"type": "application", "board": "nrf52840dk/nrf52840", "soc": "nrf52840",
                          "load_address": flash_base + slot_size, "image_index": "0", "slot": "1",
                          "version_MCUBOOT+XIP": "2.0.0"}),
    ])
    json.dump({"files": files}, sys.stdout)
    print()


if __name__ == "__main__":
    main()
