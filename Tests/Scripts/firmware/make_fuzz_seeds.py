#!/usr/bin/env python3
"""Makes the seed corpora of the firmware fuzzers from real files: MCUboot images signed by imgtool
(through ../image/make_images.py), SUIT envelopes made with cbor2 (through ../suit/make_suit_set.py)
and NCS-like firmware packages (dfu_application.zip, dfu_suit.zip) written with zipfile.

Usage: make_fuzz_seeds.py OUTPUT_FOLDER

Writes OUTPUT_FOLDER/image (image-fuzzer), OUTPUT_FOLDER/package (package-fuzzer) and
OUTPUT_FOLDER/suit (suit-fuzzer). The committed seeds in Tests/Scripts/{image,package,suit}/fuzz-seeds
were made with it:

    python make_fuzz_seeds.py /tmp/seeds && cp /tmp/seeds/image/* ../image/fuzz-seeds/ ...

Images and packages are kept small (a 512-byte body where this script signs them) so that the
fuzzers run fast; make_images.py's own images (a 5003-byte body) are kept as they are.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "suit"))
import make_suit_set  # noqa: E402  (its envelope() builds the SUIT envelopes)


def run(*arguments):
    result = subprocess.run(list(arguments), capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{' '.join(arguments)} failed:\n{result.stdout}{result.stderr}")
    return result.stdout


def imgtool(*arguments):
    return run(sys.executable, "-m", "imgtool.main", *arguments)


def copy(source, folder, name=None):
    shutil.copyfile(source, os.path.join(folder, name or os.path.basename(source)))


def small_images(work):
    """Small signed images: name -> bytes."""
    payload = os.path.join(work, "small.bin")
    with open(payload, "wb") as f:
        f.write(make_suit_set.blob(7, 512))
    key = os.path.join(work, "p256.pem")
    imgtool("keygen", "-k", key, "-t", "ecdsa-p256")
    common = ["--align", "4", "--slot-size", "0x2000", "--pad-header"]
    cases = {
        "small-app-v2": ["--version", "2.0.0", "--header-size", "0x200"],
        "small-net-v3": ["--version", "3.0.0+3", "--header-size", "0x20"],
        "small-signed": ["--version", "1.0.0", "--header-size", "0x20", "-k", key],
        "small-xip0": ["--version", "2.0.0", "--header-size", "0x20", "--rom-fixed", "0x10000"],
        "small-xip1": ["--version", "2.0.0", "--header-size", "0x20", "--rom-fixed", "0x12000"],
        "small-padded-confirmed": ["--version", "7.0.0", "--header-size", "0x20", "--pad", "--confirm"],
        "small-protected-tlvs": ["--version", "1.1.0", "--header-size", "0x20", "-s", "9", "--boot-record", "app"],
    }
    images = {}
    for name, extra in cases.items():
        path = os.path.join(work, f"{name}.bin")
        imgtool("sign", *common, *extra, payload, path)
        with open(path, "rb") as f:
            images[name] = f.read()
    return images


def zip_package(path, entries, compression):
    """entries: (file name, bytes, manifest fields or None for a file the manifest does not list)."""
    manifest = {"format-version": 0, "time": 1700000000, "name": os.path.basename(path), "files": []}
    with zipfile.ZipFile(path, "w", compression) as archive:
        for name, data, fields in entries:
            archive.writestr(name, data)
            if fields is not None:
                manifest["files"].append({"size": len(data), "file": name, "modtime": 1700000000, **fields})
        archive.writestr("manifest.json", json.dumps(manifest, indent=1))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    folders = {name: os.path.join(out, name) for name in ("image", "package", "suit")}
    for folder in folders.values():
        os.makedirs(folder, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        made = json.loads(run(sys.executable, os.path.join(HERE, "..", "image", "make_images.py"), os.path.join(work, "img")))
        for image in made["images"]:
            if image["fileSize"] <= 8192:  # the padded one fills a 256 KiB slot
                copy(image["file"], folders["image"])
        images = small_images(work)
        for name, data in images.items():
            with open(os.path.join(folders["image"], f"{name}.bin"), "wb") as f:
                f.write(data)

        suit = os.path.join(work, "suit")
        run(sys.executable, os.path.join(HERE, "..", "suit", "make_suit_set.py"), suit)
        for name in sorted(os.listdir(suit)):
            if name.endswith(".suit"):
                copy(os.path.join(suit, name), folders["suit"])

    nrf53 = {"board": "nrf5340dk/nrf5340/cpuapp", "soc": "nrf5340"}
    app = {"type": "application", **nrf53, "load_address": 0x10000, "image_index": "0", "version_MCUBOOT": "2.0.0"}
    net = {"type": "application", "board": "nrf5340dk/nrf5340/cpunet", "soc": "nrf5340", "load_address": 0x01000000,
           "image_index": "1", "version": "3"}
    xip = {"type": "application", "board": "nrf52840dk/nrf52840", "soc": "nrf52840", "image_index": "0",
           "version_MCUBOOT+XIP": "2.0.0"}
    packages = {
        "dfu_application.zip": ([("app.bin", images["small-app-v2"], app)], zipfile.ZIP_DEFLATED),
        "multi.zip": ([("app.bin", images["small-app-v2"], app), ("net.bin", images["small-net-v3"], net)],
                      zipfile.ZIP_DEFLATED),
        "multi-stored.zip": ([("app.bin", images["small-signed"], {**app, "image": 0}),
                              ("net.bin", images["small-net-v3"], {**net, "partition": 1})], zipfile.ZIP_STORED),
        "directxip.zip": ([("xip0.bin", images["small-xip0"], {**xip, "slot": "0", "load_address": "0x10000"}),
                           ("xip1.bin", images["small-xip1"], {**xip, "slot": 1, "load_address": 0x12000})],
                          zipfile.ZIP_DEFLATED),
        "mcuboot.zip": ([("mcuboot.bin", images["small-signed"], {"type": "mcuboot", **nrf53, "version": "1"})],
                        zipfile.ZIP_STORED),
    }
    envelope, _ = make_suit_set.envelope(3, ["file://app.bin"])
    suit_board = {"board": "nrf54h20dk/nrf54h20/cpuapp", "soc": "nrf54h20", "load_address": 0}
    packages["dfu_suit.zip"] = ([
        ("root.suit", envelope, {"type": "suit-envelope", **suit_board}),
        ("dfu_cache_partition_1.bin", make_suit_set.blob(3, 300), {"type": "cache", "partition": 1, **suit_board}),
        ("app.bin", make_suit_set.blob(1, 400), {"type": "bin", **suit_board}),
    ], zipfile.ZIP_STORED)
    packages["dfu_suit-deflated.zip"] = (packages["dfu_suit.zip"][0][:1], zipfile.ZIP_DEFLATED)
    for name, (entries, compression) in packages.items():
        zip_package(os.path.join(folders["package"], name), entries, compression)


if __name__ == "__main__":
    main()
