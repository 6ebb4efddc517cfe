"""The link ceiling of MCUboot's serial recovery on a QEMU fixture (Benchmarks/run-recovery.sh).

The recovery has no echo, so Benchmarks/uart_ceiling.py cannot time it. Instead, SEGMENTS times,
this writes COUNT os echo requests of 915 bytes (default 1: the recovery has one buffer, and the
raw protocol loses requests written back to back) and waits for the answer to the last one: the
recovery rejects each at once (MGMT_ERR_ENOTSUP, a few bytes back), so the time is what the guest
takes to read the bytes, plus one round trip per request, as for an upload one chunk at a time.
A segment's rate is its bytes over that time; the ceiling is the median segment. A segment whose
last request goes unanswered for 20 s (the raw protocol drops a request whose bytes overran its
fragment buffers) is left out and counted in "lost".
FRAMING is console (base64 lines, as smpctl writes them) or raw (bare SMP messages). Prints one
JSON line.

usage: recovery_ceiling.py PORT console|raw [SEGMENTS] [COUNT]
"""
import base64
import json
import socket
import statistics
import struct
import sys
import time

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from uart_ceiling import crc16_xmodem  # noqa: E402  (the same CRC as the console ceiling)


def request(text: bytes, sequence: int) -> bytes:
    """An os echo request (v2 header) of `text` (under 65,536 bytes)."""
    payload = b"\xbf\x61d\x79" + struct.pack(">H", len(text)) + text + b"\xff"
    return struct.pack(">BBHHBB", 0x0A, 0, len(payload), 0, sequence, 0) + payload


def framed(message: bytes, raw: bool) -> bytes:
    if raw:
        return message
    body = base64.b64encode(struct.pack(">H", len(message) + 2) + message + struct.pack(">H", crc16_xmodem(message)))
    return b"".join((b"\x06\x09" if i == 0 else b"\x04\x14") + body[i:i + 124] + b"\n" for i in range(0, len(body), 124))


def sequences(buffer: bytearray, raw: bool) -> list:
    """The sequence numbers of the answers complete in `buffer` (consumed)."""
    found = []
    if raw:
        while len(buffer) >= 8:
            size = 8 + struct.unpack(">H", buffer[2:4])[0]
            if len(buffer) < size:
                break
            found.append(buffer[6])
            del buffer[:size]
        return found
    *lines, rest = bytes(buffer).split(b"\n")
    buffer[:] = rest
    packet = b""
    for line in lines:
        if line.startswith(b"\x06\x09"):
            packet = base64.b64decode(line[2:])
        elif line.startswith(b"\x04\x14"):
            packet += base64.b64decode(line[2:])
        else:
            continue
        if len(packet) >= 12 and struct.unpack(">H", packet[:2])[0] == len(packet) - 2:
            found.append(packet[2 + 6])
    return found


# How long a segment's last request may go unanswered before it counts as lost.
SEGMENT_TIMEOUT = 20


def main() -> None:
    if not 3 <= len(sys.argv) <= 5:
        sys.exit(__doc__)
    port, raw = int(sys.argv[1]), sys.argv[2] == "raw"
    segments = int(sys.argv[3]) if len(sys.argv) > 3 else 8
    count = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    text = b"x" * 900  # 915-byte requests (919 decoded bytes with the console's length and CRC): within the 1,024-byte buffer
    rates = []
    lost = 0
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sequence = 0
        for _ in range(segments):
            batch = []
            for _ in range(count):
                sequence = (sequence + 1) % 256
                batch.append(framed(request(text, sequence), raw))
            data = b"".join(batch)
            buffer = bytearray()
            start = time.perf_counter()
            sock.sendall(data)
            deadline = start + SEGMENT_TIMEOUT
            answered = False
            while time.perf_counter() < deadline:
                sock.settimeout(max(0.1, deadline - time.perf_counter()))
                try:
                    chunk = sock.recv(65536)
                except TimeoutError:
                    break
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_QUICKACK, 1)
                if not chunk:
                    sys.exit("the recovery closed the link")
                buffer += chunk
                if sequence in sequences(buffer, raw):
                    answered = True
                    break
            if answered:
                rates.append(len(data) / (time.perf_counter() - start))
            else:
                # The raw recovery drops a request whose bytes overran its fragment buffers, and
                # its partial copy 3.5 s later: that segment has no rate.
                lost += 1
            time.sleep(0.2 if answered else 4)
    if not rates:
        sys.exit(f"no request of {segments} answered within {SEGMENT_TIMEOUT} s")
    print(json.dumps({"framing": "raw" if raw else "console", "bytes": len(data), "segments": [round(r) for r in rates],
                      "lost": lost, "bytesPerSecond": round(statistics.median(rates), 1)}))


main()
