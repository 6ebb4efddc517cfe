#!/usr/bin/env python3
"""Cross-check smpctl's serial framing against the Python `smp` package (driven by
SerialFramingCrossCheckTests).

`smp.packet.encode` / `smp.packet.decode` are what smpclient's serial transport uses to send and
receive "SMP over console" lines; smpclient passes its own line length (128 by default, so 124
base64 characters per line), `smp` alone defaults to 127 (120 characters).

Modes (input and output are files, one item per line, bytes as hex):

    decode INPUT OUTPUT
        INPUT lines: the bytes of one message's lines (markers, base64, newlines), as another
        encoder wrote them. Each line is handed to smp.packet.decode() as smpclient does.
        OUTPUT lines: the hex of the decoded message, or "ERROR <message>".
    encode SEED COUNT OUTPUT
        Makes COUNT random messages (seeded; 0 bytes to a few KB) and encodes each with
        smp.packet.encode at smpclient's line length or at smp's default, alternately.
        OUTPUT lines: "<line length>\t<hex of the message>\t<hex of the lines>".

Exit status: 0 when the mode ran (failures are reported in OUTPUT), 2 on bad usage,
3 when smp cannot be imported.
"""

import random
import sys

try:
    from smp import packet as smppacket
except ImportError as error:  # pragma: no cover - reported to the Swift test
    sys.stderr.write("smp is not importable: %s\n" % error)
    sys.exit(3)

try:  # smpclient's own default line length, if smpclient is installed
    from smpclient.transport.serial import encoded as _smpclient_serial

    SMPCLIENT_LINE_LENGTH = _smpclient_serial._DEFAULT_LINE_LENGTH
except Exception:  # pragma: no cover - smpclient 7.3.0 uses 128
    SMPCLIENT_LINE_LENGTH = 128

SMP_DEFAULT_LINE_LENGTH = 127


def decode_lines(stream):
    """Decodes one message's lines the way smpclient's serial transport does."""
    decoder = smppacket.decode()
    next(decoder)
    lines = stream.split(b"\n")
    if lines[-1] != b"":
        raise ValueError("the stream does not end with a newline")
    for line in lines[:-1]:
        try:
            decoder.send(line + b"\n")
        except StopIteration as done:
            return bytes(done.value)
    raise ValueError("the lines ended before the packet")


def mode_decode(input_path, output_path):
    with open(input_path) as source, open(output_path, "w") as out:
        for text in source:
            text = text.strip()
            try:
                out.write(decode_lines(bytes.fromhex(text)).hex() + "\n")
            except Exception as error:  # report, don't stop
                out.write("ERROR %s: %s\n" % (type(error).__name__, str(error).replace("\n", " ")))


def random_message(rng):
    roll = rng.random()
    if roll < 0.05:
        size = rng.randrange(0, 4)
    elif roll < 0.7:
        size = rng.randrange(0, 400)
    else:
        size = rng.randrange(0, 4096)
    return bytes(rng.getrandbits(8) for _ in range(size))


def mode_encode(seed, count, output_path):
    rng = random.Random(seed)
    with open(output_path, "w") as out:
        for index in range(count):
            message = random_message(rng)
            line_length = SMPCLIENT_LINE_LENGTH if index % 2 == 0 else SMP_DEFAULT_LINE_LENGTH
            stream = b"".join(smppacket.encode(message, line_length=line_length))
            out.write("%d\t%s\t%s\n" % (line_length, message.hex(), stream.hex()))


def main(argv):
    if len(argv) == 4 and argv[1] == "decode":
        mode_decode(argv[2], argv[3])
    elif len(argv) == 5 and argv[1] == "encode":
        mode_encode(int(argv[2]), int(argv[3]), argv[4])
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
