#!/usr/bin/env python3
"""Cross-check the SMP requests smpctl builds against the ones the Python `smp` package (the
message models smpclient sends, MIT licence) builds for the same request (driven by
RequestCrossCheckTests).

Mode (input and output are files, one request per line):

    compare INPUT OUTPUT
        INPUT lines: "NAME<TAB>HEADER<TAB>PAYLOAD<TAB>EXPRESSION": smpctl's 8-byte header and CBOR
        payload as hex, and a Python expression that builds the same request with `smp`'s models,
        its modules named o (os), i (image), f (file), s (settings), sh (shell), st (statistics),
        e (enumeration) and z (zephyr).
        OUTPUT lines: "NAME<TAB>same bytes", "NAME<TAB>same value, other bytes: OURS THEIRS" (CBOR
        that decodes to the same values of the same types with cbor2, such as in another map key
        order), or
        "NAME<TAB>DIFFERENT: what differs".

The operation, group and command are compared; the version, flags, sequence and length of the
header are not (smp numbers its own requests). Exit status: 0 when the mode ran, 2 on bad usage,
3 when smp or cbor2 cannot be imported.
"""

import sys

try:
    import cbor2
    from smp import enumeration_management as e
    from smp import file_management as f
    from smp import image_management as i
    from smp import os_management as o
    from smp import settings_management as s
    from smp import shell_management as sh
    from smp import statistics_management as st
    from smp import zephyr_management as z
except ImportError as error:  # pragma: no cover - reported to the Swift test
    sys.stderr.write("smp or cbor2 is not importable: %s\n" % error)
    sys.exit(3)

NAMESPACE = {"e": e, "f": f, "i": i, "o": o, "s": s, "sh": sh, "st": st, "z": z}


def typed(value):
    """A CBOR value with its types kept: cbor2 decodes true and 1 to values Python calls equal."""
    if isinstance(value, dict):
        return ("map", frozenset((typed(key), typed(item)) for key, item in value.items()))
    if isinstance(value, list):
        return ("array", tuple(typed(item) for item in value))
    return (type(value).__name__, value)


def compare(name, header_hex, payload_hex, expression):
    ours_header = bytes.fromhex(header_hex)
    ours_payload = bytes.fromhex(payload_hex)
    request = eval(expression, dict(NAMESPACE))  # the test's own table
    theirs = bytes(request)
    theirs_header, theirs_payload = theirs[:8], theirs[8:]
    differences = []
    if ours_header[0] & 0x07 != theirs_header[0] & 0x07:
        differences.append("operation %d, smp %d" % (ours_header[0] & 0x07, theirs_header[0] & 0x07))
    if ours_header[4:6] != theirs_header[4:6]:
        differences.append("group %s, smp %s" % (ours_header[4:6].hex(), theirs_header[4:6].hex()))
    if ours_header[7] != theirs_header[7]:
        differences.append("command %d, smp %d" % (ours_header[7], theirs_header[7]))
    ours_value, theirs_value = cbor2.loads(ours_payload), cbor2.loads(theirs_payload)
    if typed(ours_value) != typed(theirs_value):
        differences.append("payload %r, smp %r" % (ours_value, theirs_value))
    if differences:
        return "DIFFERENT: " + "; ".join(differences)
    if ours_payload == theirs_payload:
        return "same bytes"
    return "same value, other bytes: %s %s" % (ours_payload.hex(), theirs_payload.hex())


def main(arguments):
    if len(arguments) != 3 or arguments[0] != "compare":
        sys.stderr.write(__doc__)
        return 2
    with open(arguments[1], encoding="utf-8") as source, open(arguments[2], "w", encoding="utf-8") as output:
        for line in source:
            if not line.strip():
                continue
            name, header_hex, payload_hex, expression = line.rstrip("\n").split("\t")
            output.write("%s\t%s\n" % (name, compare(name, header_hex, payload_hex, expression)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
