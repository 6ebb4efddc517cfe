"""Writes the archives ZipArchiveReaderTests reads with SMPFirmware's ZIP reader.

    python zipfile_archives.py FOLDER

FOLDER/content/ gets the files (what every archive holds); FOLDER gets stored.zip and
deflated.zip (written by zipfile to a file) and streamed.zip (written by zipfile to a stream it
cannot seek in, so every entry has a data descriptor: flag bit 3, sizes after the data).
"""
import os
import random
import sys
import zipfile

FILES = {
    "manifest.json": b'{"files": []}\n',
    "app.bin": random.Random(29).randbytes(100_000),
    "empty.txt": b"",
    "sub/zeros.bin": bytes(300_000),
}


class Unseekable:
    """A file zipfile can only write to: no tell(), no seek()."""

    def __init__(self, path):
        self.file = open(path, "wb")

    def write(self, data):
        return self.file.write(data)

    def flush(self):
        self.file.flush()

    def close(self):
        self.file.close()


def write(target, compression):
    with zipfile.ZipFile(target, "w", compression) as archive:
        archive.writestr(zipfile.ZipInfo("sub/"), b"")
        for name, data in FILES.items():
            archive.writestr(name, data)


def main():
    folder = sys.argv[1]
    for name, data in FILES.items():
        path = os.path.join(folder, "content", name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as file:
            file.write(data)
    write(os.path.join(folder, "stored.zip"), zipfile.ZIP_STORED)
    write(os.path.join(folder, "deflated.zip"), zipfile.ZIP_DEFLATED)
    stream = Unseekable(os.path.join(folder, "streamed.zip"))
    write(stream, zipfile.ZIP_DEFLATED)
    stream.close()


main()
