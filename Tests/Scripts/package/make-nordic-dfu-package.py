#!/usr/bin/env python3
"""Makes Nordic DFU packages (nRF5 SDK bootloaders) with independent tools, for smpctl's tests.

Usage: make-nordic-dfu-package.py [--small] OUTPUT_FOLDER

--small makes every image 16 times smaller, leaves out secure-medium.zip, secure-large.zip and legacy-large.zip and also writes
secure-signed.dat and legacy-0.5.dat (the init packets alone): the package fuzzer's seeds
(fuzz-seeds/nordic-*) were made so.

Writes into OUTPUT_FOLDER:
  secure-signed.zip      application, init packet signed with key.pem (ECDSA P-256)
  secure-unsigned.zip    application, unsigned init packet
  secure-multi.zip       SoftDevice+bootloader and application, signed
  secure-unpacked.zip    application, sd_req written unpacked (one varint field per element)
  secure-external.zip    external application (InitCommand type 4) listed as "application"
  secure-medium.zip      a 96 KiB application, signed: 24 objects, long enough to interrupt over BLE
  secure-large.zip       a 1 MiB application, signed: long enough to interrupt
  legacy-0.5.zip         legacy DFU 0.5: extended init packet with CRC-16
  legacy-0.7.zip         legacy DFU 0.7: extended init packet with length and SHA-256
  legacy-sdbl-0.5.zip    legacy DFU 0.5: SoftDevice+bootloader (sd_size/bl_size in the manifest)
  legacy-large.zip       legacy DFU 0.5: a 256 KiB application: long enough to interrupt
  key.pem, public.pem    the signing key and its public half
  other-public.pem       a public key that signed nothing
  packages.json          what each package holds, for the tests to compare with

The Secure DFU init packets are built with Google's protobuf library from message classes made at
run time from a FileDescriptorProto built here (the messages of dfu-cc.proto: Packet, Command,
SignedCommand, InitCommand, Hash, BootValidation), so no protoc is needed. Signatures are made with
`cryptography`: ECDSA P-256 with SHA-256 over the serialized InitCommand, stored as r and s of 32
bytes each, each byte-reversed. The SHA-256 of an image is stored byte-reversed in a Secure DFU
init packet and in the usual order in a legacy one. Nothing of nrfutil is used.
Needs: protobuf, cryptography (Tests/Scripts/requirements.txt).
"""

import hashlib
import json
import os
import random
import struct
import sys
import zipfile

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

F = descriptor_pb2.FieldDescriptorProto
APPLICATION, SOFTDEVICE, BOOTLOADER, SOFTDEVICE_BOOTLOADER, EXTERNAL_APPLICATION = 0, 1, 2, 3, 4
SHA256 = 3
INIT = 1
ECDSA_P256_SHA256 = 0


def dfu_messages(packed_sd_req):
    """The message classes of dfu-cc.proto (proto2, package dfu)."""
    file = descriptor_pb2.FileDescriptorProto(name=f"dfu-cc-{packed_sd_req}.proto", package="dfu", syntax="proto2")

    def enum(name, values):
        e = file.enum_type.add(name=name)
        for number, value in enumerate(values):
            e.value.add(name=value, number=number)

    enum("OpCode", ["RESET", "INIT"])
    enum("FwType", ["APPLICATION", "SOFTDEVICE", "BOOTLOADER", "SOFTDEVICE_BOOTLOADER", "EXTERNAL_APPLICATION"])
    enum("HashType", ["NO_HASH", "CRC", "SHA128", "SHA256", "SHA512"])
    enum("ValidationType", ["NO_VALIDATION", "VALIDATE_GENERATED_CRC", "VALIDATE_SHA256", "VALIDATE_ECDSA_P256_SHA256"])
    enum("SignatureType", ["ECDSA_P256_SHA256", "ED25519"])

    def message(name, fields):
        m = file.message_type.add(name=name)
        for field_name, number, label, kind, type_name in fields:
            field = m.field.add(name=field_name, number=number, label=label, type=kind)
            if type_name:
                field.type_name = ".dfu." + type_name
            if field_name == "sd_req" and packed_sd_req:
                field.options.packed = True

    opt, req, rep = F.LABEL_OPTIONAL, F.LABEL_REQUIRED, F.LABEL_REPEATED
    message("Hash", [("hash_type", 1, req, F.TYPE_ENUM, "HashType"), ("hash", 2, req, F.TYPE_BYTES, None)])
    message("BootValidation", [("type", 1, req, F.TYPE_ENUM, "ValidationType"), ("bytes", 2, req, F.TYPE_BYTES, None)])
    message("InitCommand", [
        ("fw_version", 1, opt, F.TYPE_UINT32, None), ("hw_version", 2, opt, F.TYPE_UINT32, None),
        ("sd_req", 3, rep, F.TYPE_UINT32, None), ("type", 4, opt, F.TYPE_ENUM, "FwType"),
        ("sd_size", 5, opt, F.TYPE_UINT32, None), ("bl_size", 6, opt, F.TYPE_UINT32, None),
        ("app_size", 7, opt, F.TYPE_UINT32, None), ("hash", 8, opt, F.TYPE_MESSAGE, "Hash"),
        ("is_debug", 9, opt, F.TYPE_BOOL, None), ("boot_validation", 10, rep, F.TYPE_MESSAGE, "BootValidation"),
    ])
    message("ResetCommand", [("timeout", 1, req, F.TYPE_UINT32, None)])
    message("Command", [
        ("op_code", 1, opt, F.TYPE_ENUM, "OpCode"), ("init", 2, opt, F.TYPE_MESSAGE, "InitCommand"),
        ("reset", 3, opt, F.TYPE_MESSAGE, "ResetCommand"),
    ])
    message("SignedCommand", [
        ("command", 1, req, F.TYPE_MESSAGE, "Command"), ("signature_type", 2, req, F.TYPE_ENUM, "SignatureType"),
        ("signature", 3, req, F.TYPE_BYTES, None),
    ])
    message("Packet", [
        ("command", 1, opt, F.TYPE_MESSAGE, "Command"), ("signed_command", 2, opt, F.TYPE_MESSAGE, "SignedCommand"),
    ])
    pool = descriptor_pool.DescriptorPool()
    pool.Add(file)
    return {name: message_factory.GetMessageClass(pool.FindMessageTypeByName("dfu." + name))
            for name in ["Packet", "InitCommand"]}


def sign(key, data):
    """ECDSA P-256 SHA-256; r and s as 32 bytes each, each byte-reversed."""
    r, s = decode_dss_signature(key.sign(data, ec.ECDSA(hashes.SHA256())))
    return r.to_bytes(32, "big")[::-1] + s.to_bytes(32, "big")[::-1]


def secure_init_packet(messages, key, fw_type, firmware, fw_version, hw_version, sd_req, sd_size=0, bl_size=0, is_debug=False):
    init = messages["InitCommand"](
        fw_version=fw_version, hw_version=hw_version, type=fw_type, is_debug=is_debug,
        sd_size=sd_size if fw_type in (SOFTDEVICE, SOFTDEVICE_BOOTLOADER) else 0,
        bl_size=bl_size if fw_type in (BOOTLOADER, SOFTDEVICE_BOOTLOADER) else 0,
        app_size=len(firmware) if fw_type in (APPLICATION, EXTERNAL_APPLICATION) else 0)
    init.sd_req.extend(sd_req)
    init.hash.hash_type = SHA256
    init.hash.hash = hashlib.sha256(firmware).digest()[::-1]
    packet = messages["Packet"]()
    if key is None:
        packet.command.op_code = INIT
        packet.command.init.CopyFrom(init)
    else:
        packet.signed_command.command.op_code = INIT
        packet.signed_command.command.init.CopyFrom(init)
        packet.signed_command.signature_type = ECDSA_P256_SHA256
        packet.signed_command.signature = sign(key, init.SerializeToString())
    return packet.SerializeToString(), init.SerializeToString()


def crc16_ccitt_false(data):
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def legacy_init_packet(firmware, version, device_type, device_rev, app_version, sd_req):
    packet = struct.pack("<HHIH", device_type, device_rev, app_version, len(sd_req))
    packet += b"".join(struct.pack("<H", sd) for sd in sd_req)
    if version == "0.5":
        return packet + struct.pack("<H", crc16_ccitt_false(firmware))
    return packet + struct.pack("<II", 1, len(firmware)) + hashlib.sha256(firmware).digest()


def write_zip(path, manifest, files):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("manifest.json", json.dumps({"manifest": manifest}, indent=4, sort_keys=True))
        for name, data in files.items():
            archive.writestr(name, data)


def main():
    arguments = sys.argv[1:]
    small = arguments[:1] == ["--small"]
    if small:
        arguments = arguments[1:]
    if len(arguments) != 1 or arguments[0].startswith("-"):
        sys.exit(__doc__)
    out = arguments[0]
    scale = 16 if small else 1
    os.makedirs(out, exist_ok=True)
    rng = random.Random(26)
    key = ec.generate_private_key(ec.SECP256R1())
    other = ec.generate_private_key(ec.SECP256R1())
    with open(os.path.join(out, "key.pem"), "wb") as f:
        f.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL, serialization.NoEncryption()))
    for name, k in [("public.pem", key), ("other-public.pem", other)]:
        with open(os.path.join(out, name), "wb") as f:
            f.write(k.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))

    packed, unpacked = dfu_messages(True), dfu_messages(False)
    described = {}

    def secure(zip_name, images, signer, messages=packed):
        manifest, files, listed = {}, {}, []
        for image in images:
            image = dict(image, **{k: image[k] // scale for k in ("size", "sd_size", "bl_size") if k in image})
            firmware = rng.randbytes(image["size"])
            stem = image["stem"]
            dat, init_bytes = secure_init_packet(
                messages, signer, image["type"], firmware, image["fw_version"], image["hw_version"], image["sd_req"],
                image.get("sd_size", 0), image.get("bl_size", 0), image.get("is_debug", False))
            entry = {"bin_file": stem + ".bin", "dat_file": stem + ".dat"}
            if image["type"] == SOFTDEVICE_BOOTLOADER:
                entry["info_read_only_metadata"] = {"bl_size": image["bl_size"], "sd_size": image["sd_size"]}
            manifest[image["key"]] = entry
            files[stem + ".bin"], files[stem + ".dat"] = firmware, dat
            listed.append({
                "type": image["type"], "binFile": stem + ".bin", "datFile": stem + ".dat", "size": len(firmware),
                "sha256": hashlib.sha256(firmware).hexdigest(), "fwVersion": image["fw_version"], "hwVersion": image["hw_version"],
                "sdReq": image["sd_req"], "isDebug": image.get("is_debug", False), "signed": signer is not None,
                "initPacket": dat.hex(), "initCommand": init_bytes.hex(),
            })
        write_zip(os.path.join(out, zip_name), manifest, files)
        described[zip_name] = {"kind": "secure", "images": listed}

    def legacy(zip_name, version, images):
        manifest, files, listed = {"dfu_version": float(version)}, {}, []
        for image in images:
            image = dict(image, **{k: image[k] // scale for k in ("size", "sd_size", "bl_size") if k in image})
            firmware = rng.randbytes(image["size"])
            stem = image["stem"]
            dat = legacy_init_packet(firmware, version, 0xFFFF, 0xFFFF, image["app_version"], image["sd_req"])
            data = {"application_version": image["app_version"], "device_revision": 0xFFFF, "device_type": 0xFFFF,
                    "softdevice_req": image["sd_req"]}
            if version == "0.5":
                data["firmware_crc16"] = crc16_ccitt_false(firmware)
            else:
                data["firmware_hash"] = hashlib.sha256(firmware).hexdigest()
            entry = {"bin_file": stem + ".bin", "dat_file": stem + ".dat", "init_packet_data": data}
            if image["key"] == "softdevice_bootloader":
                entry["sd_size"], entry["bl_size"] = image["sd_size"], image["bl_size"]
            manifest[image["key"]] = entry
            files[stem + ".bin"], files[stem + ".dat"] = firmware, dat
            listed.append({
                "type": image["type"], "binFile": stem + ".bin", "datFile": stem + ".dat", "size": len(firmware),
                "sha256": hashlib.sha256(firmware).hexdigest(), "crc16": crc16_ccitt_false(firmware),
                "appVersion": image["app_version"], "sdReq": image["sd_req"], "initPacket": dat.hex(),
            })
        write_zip(os.path.join(out, zip_name), manifest, files)
        described[zip_name] = {"kind": "legacy", "dfuVersion": version, "images": listed}

    app = {"key": "application", "stem": "app", "type": APPLICATION, "size": 5003, "fw_version": 7, "hw_version": 52,
           "sd_req": [0xB7, 0x101]}
    secure("secure-signed.zip", [app], key)
    secure("secure-unsigned.zip", [dict(app, fw_version=8, is_debug=True)], None)
    secure("secure-unpacked.zip", [dict(app, sd_req=[0xB6, 0xCA, 0x100])], key, unpacked)
    secure("secure-external.zip", [dict(app, type=EXTERNAL_APPLICATION, stem="ext")], key)
    secure("secure-multi.zip", [
        dict(app, fw_version=3),
        {"key": "softdevice_bootloader", "stem": "sd_bl", "type": SOFTDEVICE_BOOTLOADER, "size": 6000, "sd_size": 4096,
         "bl_size": 1904, "fw_version": 2, "hw_version": 52, "sd_req": [0xB7]},
    ], key)
    legacy("legacy-0.5.zip", "0.5", [{"key": "application", "stem": "app", "type": APPLICATION, "size": 3001,
                                      "app_version": 0xFFFFFFFF, "sd_req": [0xFFFE]}])
    legacy("legacy-0.7.zip", "0.7", [{"key": "application", "stem": "app", "type": APPLICATION, "size": 2048,
                                      "app_version": 1, "sd_req": [0x88, 0x8C]}])
    legacy("legacy-sdbl-0.5.zip", "0.5", [{"key": "softdevice_bootloader", "stem": "sd_bl", "type": SOFTDEVICE_BOOTLOADER,
                                           "size": 3000, "sd_size": 2000, "bl_size": 1000, "app_version": 0xFFFFFFFF,
                                           "sd_req": [0xFFFE]}])
    if not small:
        # Big enough for an upgrade to be interrupted while it runs (a second or so on a pty).
        secure("secure-large.zip", [dict(app, size=1 << 20, fw_version=9, stem="large")], key)
        # Over BLE each 4 KiB object costs a 0.4 s pause: 24 objects take about 10 s.
        secure("secure-medium.zip", [dict(app, size=96 << 10, fw_version=8, stem="medium")], key)
        legacy("legacy-large.zip", "0.5", [{"key": "application", "stem": "large", "type": APPLICATION, "size": 1 << 18,
                                            "app_version": 0xFFFFFFFF, "sd_req": [0xFFFE]}])
    if small:
        for name in ["secure-signed", "legacy-0.5"]:
            with zipfile.ZipFile(os.path.join(out, name + ".zip")) as archive, open(os.path.join(out, name + ".dat"), "wb") as f:
                f.write(archive.read("app.dat"))
    with open(os.path.join(out, "packages.json"), "w") as f:
        json.dump(described, f, indent=2, sort_keys=True)


if __name__ == "__main__":
    main()
