#!/usr/bin/env python3
"""Cross-check smpctl's CBOR codec against Python's cbor2 (driven by CBORCrossCheckTests).

Both sides describe decoded items in the same plain notation, which, unlike diagnostic
notation, leaves no room for formatting differences:

    u<n> / n<n>        unsigned integer n / negative integer -1-n
    b<hex> / t<hex>    byte string / text string (hex of its UTF-8 bytes)
    [a,b,...]          array
    {k:v,...}          map, entries in wire order
    g<tag>(x)          tagged item
    F T N U            false, true, null, undefined
    s<n>               other simple value
    f<16 hex digits>   float: the bits of the IEEE 754 double; fNaN for every NaN

Modes (input and output are files, one item per line):

    decode INPUT OUTPUT
        INPUT lines: hex of a CBOR item. OUTPUT lines: the plain notation of cbor2's decoding,
        or "ERROR <message>".
    generate SEED COUNT OUTPUT
        Makes COUNT random items with cbor2 (seeded), encodes each with cbor2 (default or
        canonical options, definite or indefinite containers) and writes
        "<hex>\t<plain notation>\t<canonical: 1|0>".
    verify INPUT OUTPUT
        INPUT lines: "<hex of cbor2's encoding>\t<hex of the re-encoding by another codec>".
        OUTPUT lines: "OK" when cbor2 decodes both to the same item, else "MISMATCH <details>".

Exit status: 0 when the mode ran (mismatches are reported in OUTPUT), 2 on bad usage,
3 when cbor2 cannot be imported.
"""

import random
import struct
import sys

try:
    import cbor2
    from cbor2 import CBORSimpleValue, CBORTag
except ImportError as error:  # pragma: no cover - reported to the Swift test
    sys.stderr.write("cbor2 is not importable: %s\n" % error)
    sys.exit(3)

# Tags that cbor2 keeps as CBORTag instead of decoding them into Python objects; the same list
# as RandomCBOR.cbor2SafeTags on the Swift side.
SAFE_TAGS = [6, 7, 10, 15, 21, 22, 23, 24, 33, 34, 42, 99, 255, 1000, 65000, 70000, 5000000000]
MAX_64 = (1 << 64) - 1


def plain(value):
    """The plain notation of a decoded cbor2 value."""
    if value is True:
        return "T"
    if value is False:
        return "F"
    if value is None:
        return "N"
    if value is cbor2.undefined:
        return "U"
    if isinstance(value, CBORSimpleValue):
        return "s%d" % value.value
    if isinstance(value, int):
        if value >= 0:
            if value > MAX_64:
                raise ValueError("integer beyond 64 bits: %d" % value)
            return "u%d" % value
        if -1 - value > MAX_64:
            raise ValueError("integer beyond 64 bits: %d" % value)
        return "n%d" % (-1 - value)
    if isinstance(value, float):
        if value != value:
            return "fNaN"
        return "f" + struct.pack(">d", value).hex()
    if isinstance(value, (bytes, bytearray)):
        return "b" + bytes(value).hex()
    if isinstance(value, str):
        return "t" + value.encode("utf-8").hex()
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(plain(element) for element in value) + "]"
    if isinstance(value, CBORTag):
        return "g%d(%s)" % (value.tag, plain(value.value))
    if hasattr(value, "items"):  # dict, cbor2's frozendict
        return "{" + ",".join(plain(k) + ":" + plain(v) for k, v in value.items()) + "}"
    raise ValueError("no plain notation for %r (%s)" % (value, type(value).__name__))


def decode_all(input_path, output_path):
    with open(input_path) as source, open(output_path, "w") as sink:
        for line in source:
            line = line.strip()
            if not line:
                continue
            try:
                sink.write(plain(cbor2.loads(bytes.fromhex(line))) + "\n")
            except Exception as error:  # any failure is a finding for the Swift side
                message = ("%s: %s" % (type(error).__name__, error)).replace("\n", " ")
                sink.write("ERROR " + message + "\n")


class Generator:
    """Random Python values that cbor2 encodes and decodes without loss."""

    INTERESTING = [0, 1, 23, 24, 255, 256, 65535, 65536, 2**32 - 1, 2**32, 2**63 - 1, 2**63, MAX_64]

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def integer(self):
        r = self.rng
        choice = r.randrange(4)
        if choice == 0:
            magnitude = r.choice(self.INTERESTING)
        elif choice == 1:
            magnitude = r.randrange(24)
        elif choice == 2:
            magnitude = r.randrange(65536)
        else:
            magnitude = r.getrandbits(64) >> r.randrange(64)
        return magnitude if r.random() < 0.5 else -1 - magnitude

    def float(self):
        r = self.rng
        choice = r.randrange(6)
        if choice == 0:
            return r.choice([0.0, -0.0, float("inf"), float("-inf"), float("nan"), 1.5, 65504.0,
                             5.960464477539063e-08, 3.4028234663852886e38, 1e300, 5e-324, 1.1])
        if choice == 1:  # exact half precision
            return struct.unpack(">e", struct.pack(">H", r.getrandbits(16)))[0]
        if choice == 2:  # exact single precision
            return struct.unpack(">f", struct.pack(">I", r.getrandbits(32)))[0]
        if choice == 3:
            return r.randrange(-100000, 100000) / 8
        return struct.unpack(">d", struct.pack(">Q", r.getrandbits(64)))[0]

    def text(self):
        r = self.rng
        out = []
        for _ in range(r.randrange(24 + r.randrange(2) * 40)):
            kind = r.randrange(6)
            if kind < 3:
                code = r.randrange(0x20, 0x7F)
            elif kind == 3:
                code = r.choice([0x00, 0x1F, 0x7F, 0xE9, 0x301, 0xFEFF, 0xFFFD, 0xFFFF, 0x10FFFF])
            elif kind == 4:
                code = r.randrange(0x80, 0x10000)
            else:
                code = r.randrange(0x10000, 0x110000)
            if 0xD800 <= code <= 0xDFFF:  # surrogates are not scalar values
                code = 0xFFFD
            out.append(chr(code))
        return "".join(out)

    def bytes(self):
        r = self.rng
        return bytes(r.getrandbits(8) for _ in range(r.randrange(30 if r.random() < 0.2 else 8)))

    def key(self):
        choice = self.rng.randrange(3)
        if choice == 0:
            return self.integer()
        if choice == 1:
            return self.bytes()
        return self.text()

    def item(self, depth=0):
        r = self.rng
        choice = r.randrange(13 if depth < 4 else 9)
        if choice == 0:
            return self.integer()
        if choice == 1:
            return self.bytes()
        if choice == 2:
            return self.text()
        if choice == 3:
            return r.choice([True, False, None, cbor2.undefined])
        if choice == 4:
            value = r.randrange(20) if r.random() < 0.5 else r.randrange(32, 256)
            return CBORSimpleValue(value)
        if choice in (5, 6, 7, 8):
            return self.float()
        if choice in (9, 10):
            return [self.item(depth + 1) for _ in range(r.randrange(6))]
        if choice == 11:
            result = {}
            for _ in range(r.randrange(6)):
                result[self.key()] = self.item(depth + 1)  # equal keys collapse, as in Python
            return result
        return CBORTag(r.choice(SAFE_TAGS), self.item(depth + 1))


def dumps(value, canonical, indefinite):
    if indefinite:
        try:
            return cbor2.dumps(value, canonical=canonical, indefinite_containers=True)
        except TypeError:  # cbor2 releases without indefinite_containers
            pass
    return cbor2.dumps(value, canonical=canonical)


def generate(seed, count, output_path):
    generator = Generator(seed)
    with open(output_path, "w") as sink:
        for _ in range(count):
            value = generator.item()
            canonical = generator.rng.random() < 0.5
            indefinite = not canonical and generator.rng.random() < 0.3
            encoded = dumps(value, canonical, indefinite)
            # The notation of what cbor2 itself decodes, so both codecs are held to one reading.
            notation = plain(cbor2.loads(encoded))
            sink.write("%s\t%s\t%d\n" % (encoded.hex(), notation, 1 if canonical else 0))


def verify(input_path, output_path):
    with open(input_path) as source, open(output_path, "w") as sink:
        for line in source:
            line = line.strip()
            if not line:
                continue
            original_hex, other_hex = line.split("\t")
            try:
                expected = plain(cbor2.loads(bytes.fromhex(original_hex)))
                actual = plain(cbor2.loads(bytes.fromhex(other_hex)))
            except Exception as error:
                sink.write("MISMATCH cbor2 cannot decode %s: %s\n" % (other_hex, error))
                continue
            if expected == actual:
                sink.write("OK\n")
            else:
                sink.write("MISMATCH %s re-encoded as %s: %s != %s\n" % (original_hex, other_hex, expected, actual))


def main(argv):
    if len(argv) == 4 and argv[1] == "decode":
        decode_all(argv[2], argv[3])
    elif len(argv) == 5 and argv[1] == "generate":
        generate(int(argv[2]), int(argv[3]), argv[4])
    elif len(argv) == 4 and argv[1] == "verify":
        verify(argv[2], argv[3])
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
