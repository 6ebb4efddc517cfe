#!/usr/bin/env python3
"""Makes real MCUboot images with imgtool (pinned in Tests/Scripts/requirements.txt) for the
SMPFirmware image-parser tests.

Usage: make_images.py OUTPUT_FOLDER [IMGTOOL]

Writes a random application binary, generated signing keys and one signed (or unsigned) image per
case into OUTPUT_FOLDER, then prints one JSON manifest on standard output:

    {"imgtool": "2.5.0", "images": [{"name", "file", "version", "flags", "flagsValue", "headerSize",
      "imageSize", "protectedTLVSize", "loadAddress", "totalSize", "fileSize", "hashAlgorithm",
      "hash", "sha256", "signature", "keyTLV", "dumpinfo": {...imgtool dumpinfo -f json...},
      "hexFile", "hexAddress"}]}

`hexFile` is the same image signed again as Intel HEX (imgtool writes HEX when the name ends in
.hex) placed at `hexAddress`, for the deterministic cases in HEX_ADDRESSES (ECDSA and RSA-PSS
signatures differ each time); null for the others.

`hash` is computed here with hashlib over header, body and protected TLV area (the MCUboot image
hash), independently of the TLV; `sha256` is that value for SHA-256 images, else null. `signature`
and `keyTLV` name the signature and key TLVs expected. IMGTOOL is the imgtool program to run
(default: `python -m imgtool.main` with this interpreter).
"""

import hashlib
import json
import os
import random
import subprocess
import sys

FLAGS = {"ROM_FIXED": 0x100, "RAM_LOAD": 0x20, "NON_BOOTABLE": 0x10}
HEX_ADDRESSES = {"unsigned-h200": 0xC000, "ed25519-pubkey": 0xFFF0, "rom-fixed": 0x10000, "padded-confirmed": 0x80000}


def run(imgtool, *arguments):
    result = subprocess.run(imgtool + list(arguments), capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"imgtool {' '.join(arguments)} failed:\n{result.stdout}{result.stderr}")
    return result.stdout


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    out = sys.argv[1]
    imgtool = [sys.argv[2]] if len(sys.argv) == 3 else [sys.executable, "-m", "imgtool.main"]
    os.makedirs(out, exist_ok=True)
    rng = random.Random(0x5EED)
    payload = os.path.join(out, "app.bin")
    with open(payload, "wb") as f:
        f.write(bytes(rng.randrange(256) for _ in range(5003)))

    keys = {}
    for kind in ("rsa-2048", "rsa-3072", "ecdsa-p256", "ecdsa-p384", "ed25519"):
        path = os.path.join(out, f"{kind}.pem")
        run(imgtool, "keygen", "-k", path, "-t", kind)
        keys[kind] = path

    common = ["--align", "4", "--slot-size", "0x40000", "--pad-header"]
    # name, version, header size, extra arguments, expected flags, expected hash, signature TLV, key TLV
    cases = [
        ("unsigned-h200", "1.2.3+4", 0x200, [], [], "SHA256", None, None),
        ("unsigned-h20", "0.0.1", 0x20, [], [], "SHA256", None, None),
        ("unsigned-h400", "255.255.65535+4294967295", 0x400, [], [], "SHA256", None, None),
        ("rsa2048", "2.0.0+1", 0x200, ["-k", keys["rsa-2048"]], [], "SHA256", "RSA2048_PSS", "KEYHASH"),
        ("rsa3072", "2.0.1", 0x200, ["-k", keys["rsa-3072"]], [], "SHA256", "RSA3072_PSS", "KEYHASH"),
        ("ecdsa-p256", "3.1.4+15", 0x200, ["-k", keys["ecdsa-p256"], "-s", "7"], [], "SHA256", "ECDSA_SIG", "KEYHASH"),
        ("ecdsa-p384", "3.1.5", 0x200, ["-k", keys["ecdsa-p384"]], [], "SHA384", "ECDSA_SIG", "KEYHASH"),
        ("ed25519-pubkey", "4.0.0", 0x200, ["-k", keys["ed25519"], "--public-key-format", "full"], [],
         "SHA256", "ED25519", "PUBKEY"),
        ("ed25519-sha512", "4.0.1", 0x200, ["-k", keys["ed25519"], "--sha", "512"], [], "SHA512", "ED25519", "KEYHASH"),
        ("sha384-unsigned", "5.0.0", 0x200, ["--sha", "384"], [], "SHA384", None, None),
        ("rom-fixed", "6.0.0", 0x200, ["--rom-fixed", "0x10000"], ["ROM_FIXED"], "SHA256", None, None),
        ("ram-load", "6.1.0", 0x200, ["--load-addr", "0x20000000"], ["RAM_LOAD"], "SHA256", None, None),
        ("non-bootable", "6.2.0", 0x200, ["--non-bootable", "-s", "auto"], ["NON_BOOTABLE"], "SHA256", None, None),
        ("padded-confirmed", "7.0.0", 0x200, ["--pad", "--confirm"], [], "SHA256", None, None),
    ]
    images = []
    for name, version, header_size, extra, flags, algorithm, signature, key_tlv in cases:
        path = os.path.join(out, f"{name}.bin")
        run(imgtool, "sign", "--version", version, "--header-size", hex(header_size), *common, *extra, payload, path)
        with open(path, "rb") as f:
            data = f.read()
        hex_file = None
        if name in HEX_ADDRESSES:
            hex_file = os.path.join(out, f"{name}.hex")
            run(imgtool, "sign", "--version", version, "--header-size", hex(header_size), *common, *extra,
                "--hex-addr", hex(HEX_ADDRESSES[name]), payload, hex_file)
        info = json.loads(run(imgtool, "dumpinfo", "-f", "json", path))
        header = info["header"]
        hashed = header["hdr_size"] + header["img_size"] + header["protected_tlv_size"]
        digest = hashlib.new(algorithm.lower(), data[:hashed]).hexdigest()
        total = hashed + info["tlv_area"]["tlv_hdr"]["tlv_tot"]
        flag_value = 0
        for flag in flags:
            flag_value |= FLAGS[flag]
        if header["flags"] != flag_value:
            sys.exit(f"{name}: imgtool wrote flags {header['flags']:#x}, expected {flag_value:#x}")
        images.append({
            "name": name, "file": path, "version": version, "flags": flags, "flagsValue": flag_value,
            "headerSize": header_size, "imageSize": header["img_size"],
            "protectedTLVSize": header["protected_tlv_size"], "loadAddress": header["load_addr"],
            "totalSize": total, "fileSize": len(data), "hashAlgorithm": algorithm, "hash": digest,
            "sha256": digest if algorithm == "SHA256" else None, "signature": signature, "keyTLV": key_tlv,
            "dumpinfo": info, "hexFile": hex_file, "hexAddress": HEX_ADDRESSES.get(name),
        })
    json.dump({"imgtool": run(imgtool, "version").strip(), "images": images}, sys.stdout)
    print()


if __name__ == "__main__":
    main()
