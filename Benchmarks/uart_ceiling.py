"""The raw byte rate a QEMU fixture's UART takes from the host: the link ceiling of
Benchmarks/run-fixtures.sh. Connects to the UART's TCP server and, SEGMENTS times, writes BYTES
of console lines that are not SMP frames (127 characters and a newline each; Zephyr's SMP UART
driver reads and drops them), then one small SMP echo request, and waits for its answer. QEMU
takes a byte from the socket only when the guest has read the previous one, so the echo is
answered once the guest has read every byte before it: a segment's rate is BYTES over that time
(less one echo round trip). The ceiling is the median segment.

Then the rate at which the device takes SMP requests: a burst of ECHOES one-line echo requests
(a 60-character text: 107 bytes with the line's framing) written without pauses; the bytes of
the requests answered, over the time from the first byte written to the last answer. This
counts the device's SMP work (decoding, and answering, which an upload hardly pays) and leaves
out what it dropped. Prints one JSON line.

usage: uart_ceiling.py PORT [SEGMENTS] [BYTES] [ECHOES]
"""
import base64
import json
import socket
import statistics
import struct
import sys
import time


def crc16_xmodem(data: bytes) -> int:
    crc = 0
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021 if crc & 0x8000 else crc << 1) & 0xFFFF
    return crc


def echo_frame(text: bytes, sequence: int) -> bytes:
    """One SMP console frame holding an os echo request of `text` (one line up to ~80 bytes)."""
    head = bytes([0x60 + len(text)]) if len(text) < 24 else bytes([0x78, len(text)])
    payload = b"\xbf\x61d" + head + text + b"\xff"  # {"d": text}, text < 256 bytes
    message = struct.pack(">BBHHBB", 0x0A, 0, len(payload), 0, sequence, 0) + payload  # v2 write, os echo
    body = struct.pack(">H", len(message) + 2) + message + struct.pack(">H", crc16_xmodem(message))
    return b"\x06\x09" + base64.b64encode(body) + b"\n"


def exchange(sock: socket.socket, junk: bytes, marker: bytes) -> float:
    """Writes `junk` then an echo of `marker`; the seconds until the answer carrying it came back."""
    frame = echo_frame(marker, len(marker))
    start = time.perf_counter()
    sock.sendall(junk + frame)
    received = b""
    deadline = start + 30
    while time.perf_counter() < deadline:
        sock.settimeout(max(0.1, deadline - time.perf_counter()))
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            break
        if not chunk:
            break
        received += chunk
        for line in received.split(b"\n"):
            if line.startswith(b"\x06\x09"):
                try:
                    body = base64.b64decode(line[2:])
                except ValueError:
                    continue
                if marker in body:
                    return time.perf_counter() - start
    sys.exit(f"no answer to the echo of {marker!r} from the UART within 30 s (the guest stopped taking bytes)")


def echo_burst(sock: socket.socket, count: int) -> dict:
    """Writes `count` one-line echo requests at once; which were answered, and how fast."""
    frames = [echo_frame(b"%03d" % n + b"e" * 57, n % 256) for n in range(count)]
    answered = set()
    received = b""
    start = time.perf_counter()
    last = start
    sock.sendall(b"".join(frames))
    sock.settimeout(1.0)  # the burst is over once nothing comes back for a second
    while len(answered) < count:
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            break
        if not chunk:
            break
        received += chunk
        *lines, received = received.split(b"\n")
        for line in lines:
            if line.startswith(b"\x06\x09"):
                try:
                    body = base64.b64decode(line[2:])
                except ValueError:
                    continue
                index = body.find(b"eeeee")
                if index >= 3 and body[index - 3:index].isdigit():
                    answered.add(int(body[index - 3:index]))
                    last = time.perf_counter()
    seconds = last - start
    return {"echoes": count, "answered": len(answered), "lineBytes": len(frames[0]),
            "bytesPerSecond": round(len(answered) * len(frames[0]) / max(1e-9, seconds), 1)}


def main() -> None:
    if not 2 <= len(sys.argv) <= 5:
        sys.exit(__doc__)
    port = int(sys.argv[1])
    segments = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    size = int(sys.argv[3]) if len(sys.argv) > 3 else 32768
    echoes = int(sys.argv[4]) if len(sys.argv) > 4 else 300
    line = b"a" * 127 + b"\n"
    junk = line * (size // len(line))
    rates = []
    with socket.create_connection(("127.0.0.1", port)) as sock:
        base = min(exchange(sock, b"", b"round-trip-%d" % n) for n in range(3))  # the round trip alone
        for n in range(segments):
            seconds = exchange(sock, junk, b"segment-%d" % n)
            rates.append(len(junk) / max(1e-9, seconds - base))
        time.sleep(0.2)
        burst = echo_burst(sock, echoes)
    print(json.dumps({"bytes": len(junk), "roundTrip": round(base, 4), "segments": [round(r) for r in rates],
                      "bytesPerSecond": round(statistics.median(rates), 1), "echoBurst": burst}))


if __name__ == "__main__":
    main()
