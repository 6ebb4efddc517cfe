#!/usr/bin/env python3
"""Run a QEMU fixture whose memory survives resets, as a real board's flash does.

The MCUboot fixtures load the application into "flash" slot 0 with `-device loader`, and QEMU
copies loader blobs again on every system reset, guest resets included: an image that MCUboot
serial recovery wrote into slot 0 would be replaced by the original at the next reset. This
supervisor runs the fixture's `qemu_cmd` with `-action reboot=shutdown,shutdown=pause` and a QMP
socket. When the guest asks for a reset, QEMU pauses instead; the supervisor saves the memory
regions given by --region (QMP `memsave` through CPU 0's address space: on the micro:bit the
nRF51's flash is mapped there, not in the system memory that `pmemsave` reads, whose dump came
back all zeros and left the board dead after its first reset), ends QEMU, and starts it again with
loaders of those dumps in place of the command's own loaders. What the guest wrote (slots, the retained boot mode)
survives, exactly as RAM survives a QEMU warm reset, but nothing is put back.

The UART stays reachable on one TCP port that the supervisor owns (--port): it relays a client's
bytes to QEMU's chardev (on an internal port) and back, and reconnects to each new QEMU, like a
USB-UART adapter that stays plugged in while the board resets. Bytes sent while QEMU restarts are
dropped, as a UART drops them during a reset, and so are those of the --boot-quiet seconds after
it. A new client replaces the previous one.

It prints `ready 127.0.0.1:PORT` once the first QEMU runs, `reset N` after each restart, and
exits non-zero with a message if QEMU ends by itself. SIGTERM or SIGINT end QEMU and the
supervisor; QEMU also dies with the supervisor (PR_SET_PDEATHSIG).

Usage: persistent_flash.py --port PORT --scratch DIR --region 0x0:0x400000 [--region ...]
           -- qemu-system-arm ... port=<PORT> ... -device loader,file=... ...
(run in the fixtures folder; `<PORT>` stands for QEMU's own UART port, as in the manifest).
Standard library only.
"""

import argparse
import ctypes
import json
import os
import selectors
import signal
import socket
import subprocess
import sys
import time

START_TIMEOUT = 15.0


def log(message):
    print(message, flush=True)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def die_with_parent():
    """Runs in QEMU's child process before exec: SIGKILL it when the supervisor dies."""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def without_loaders(words):
    """The command without its `-device loader,...` options."""
    kept, index = [], 0
    while index < len(words):
        if words[index] == "-device" and index + 1 < len(words) and words[index + 1].startswith("loader,"):
            index += 2
            continue
        kept.append(words[index])
        index += 1
    return kept


class QEMU:
    """One QEMU process, its UART connection and its QMP connection."""

    def __init__(self, words, cwd, scratch, generation):
        self.qmp_path = os.path.join(scratch, f"qmp-{generation}.sock")
        self.uart_port = free_port()
        command = [word.replace("<PORT>", str(self.uart_port)) for word in words] + [
            "-qmp", f"unix:{self.qmp_path},server=on,wait=off",
            "-action", "reboot=shutdown,shutdown=pause",
        ]
        log("qemu: " + " ".join(command))
        self.process = subprocess.Popen(command, cwd=cwd, stdin=subprocess.DEVNULL, preexec_fn=die_with_parent)
        self.uart = None
        self.qmp = None
        self.qmp_buffer = b""
        self.events = []
        try:
            self.uart = self._connect(socket.AF_INET, ("127.0.0.1", self.uart_port))
            self.qmp = self._connect(socket.AF_UNIX, self.qmp_path)
            self._read_message()  # the greeting
            self.command("qmp_capabilities")
        except Exception:
            self.kill()
            raise

    def _connect(self, family, address):
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"QEMU ended with status {self.process.returncode} before it listened on {address}")
            connection = socket.socket(family, socket.SOCK_STREAM)
            try:
                connection.connect(address)
                if family == socket.AF_INET:
                    connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                return connection
            except OSError:
                connection.close()
                if time.monotonic() > deadline:
                    raise RuntimeError(f"QEMU did not listen on {address} within {START_TIMEOUT} s")
                time.sleep(0.02)

    def _read_message(self):
        while b"\n" not in self.qmp_buffer:
            data = self.qmp.recv(65536)
            if not data:
                raise RuntimeError("QEMU closed its QMP socket")
            self.qmp_buffer += data
        line, self.qmp_buffer = self.qmp_buffer.split(b"\n", 1)
        return json.loads(line) if line.strip() else self._read_message()

    def command(self, name, **arguments):
        """Runs a QMP command and returns its result; events that arrive meanwhile are kept."""
        self.qmp.sendall(json.dumps({"execute": name, "arguments": arguments}).encode() + b"\n")
        while True:
            message = self._read_message()
            if "event" in message:
                self.events.append(message)
            elif "error" in message:
                raise RuntimeError(f"QMP {name}: {message['error']}")
            elif "return" in message:
                return message["return"]

    def read_events(self):
        """Reads what the QMP socket has (call when it is readable) into `events`."""
        data = self.qmp.recv(65536)
        if not data:
            raise RuntimeError("QEMU closed its QMP socket")
        self.qmp_buffer += data
        while b"\n" in self.qmp_buffer:
            message = self._read_message()
            if "event" in message:
                self.events.append(message)

    def wait_until_stopped(self):
        deadline = time.monotonic() + START_TIMEOUT
        while self.command("query-status")["status"] != "shutdown":
            if time.monotonic() > deadline:
                raise RuntimeError("QEMU did not pause after the guest's reset")
            time.sleep(0.01)

    def kill(self):
        for connection in (self.uart, self.qmp):
            if connection is not None:
                connection.close()
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(2)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        try:
            os.unlink(self.qmp_path)
        except OSError:
            pass


def parse_region(text):
    try:
        address, size = text.split(":")
        return int(address, 0), int(size, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not ADDRESS:SIZE (e.g. 0x20000000:0x400000)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, required=True, help="the TCP port on 127.0.0.1 that clients connect to")
    parser.add_argument("--scratch", required=True, help="a folder for memory dumps and QMP sockets")
    parser.add_argument("--region", type=parse_region, action="append", required=True,
                        help="ADDRESS:SIZE of guest memory that survives a reset (repeat)")
    parser.add_argument("--boot-quiet", type=float, default=0.0, metavar="SECONDS",
                        help="drop the client's bytes for SECONDS after each restart (QEMU's micro:bit UART "
                             "stops receiving for good when bytes arrive while the guest boots)")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- the fixture's qemu_cmd words")
    options = parser.parse_args()
    words = options.command[1:] if options.command[:1] == ["--"] else options.command
    if not words or not any("<PORT>" in word for word in words):
        parser.error("give the QEMU command after --, with <PORT> where QEMU's UART port goes")

    def stop(signum, _frame):
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", options.port))
    listener.listen(4)
    qemu = None
    client = None
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ, "listener")

    def start(command, generation):
        for attempt in range(3):  # QEMU's port may be taken by someone else before it binds it
            try:
                started = QEMU(command, os.getcwd(), options.scratch, generation)
            except RuntimeError as error:
                log(f"qemu did not start (attempt {attempt + 1}): {error}")
                continue
            selector.register(started.uart, selectors.EVENT_READ, "uart")
            selector.register(started.qmp, selectors.EVENT_READ, "qmp")
            return started
        raise SystemExit("persistent_flash: QEMU did not start")

    def restart(old, generation):
        """Saves the regions of the paused QEMU, ends it and starts one that loads them."""
        old.wait_until_stopped()
        loaders = []
        for address, size in options.region:
            dump = os.path.join(options.scratch, f"ram-{address:08x}.bin")
            old.command("memsave", val=address, size=size, filename=dump, **{"cpu-index": 0})
            loaders += ["-device", f"loader,file={dump},addr={address:#x},force-raw=on"]
        selector.unregister(old.uart)
        selector.unregister(old.qmp)
        old.kill()
        return start(without_loaders(words) + loaders, generation)

    try:
        qemu = start(words, 0)
        log(f"ready 127.0.0.1:{options.port}")
        resets = 0
        quiet_until = 0.0
        while True:
            for key, _ in selector.select(timeout=0.5):
                if key.data == "listener":
                    accepted, _ = listener.accept()
                    if client is not None:
                        selector.unregister(client)
                        client.close()
                    client = accepted
                    client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                    selector.register(client, selectors.EVENT_READ, "client")
                elif key.data == "client":
                    try:
                        data = client.recv(65536)
                    except OSError:
                        data = b""  # the client went away
                    if not data:
                        selector.unregister(client)
                        client.close()
                        client = None
                    elif time.monotonic() >= quiet_until:
                        try:
                            qemu.uart.sendall(data)
                        except OSError:
                            pass  # QEMU is going away: the bytes are lost, as during a reset
                elif key.data == "uart":
                    data = qemu.uart.recv(65536)
                    # QEMU's chardev leaves Nagle on and the guest writes its answers a byte at a
                    # time: acknowledge at once, or the rest of each answer waits for a delayed ACK.
                    if hasattr(socket, "TCP_QUICKACK"):
                        qemu.uart.setsockopt(socket.IPPROTO_TCP, socket.TCP_QUICKACK, 1)
                    if data and client is not None:
                        try:
                            client.sendall(data)
                        except OSError:
                            selector.unregister(client)
                            client.close()
                            client = None
                    elif not data:
                        selector.unregister(qemu.uart)  # QEMU closes it when it ends; QMP says why
                elif key.data == "qmp":
                    qemu.read_events()
            # Events may also have come in with a command's answer.
            events, qemu.events = qemu.events, []
            if any(e["event"] == "SHUTDOWN" and e.get("data", {}).get("reason") == "guest-reset" for e in events):
                resets += 1
                qemu = restart(qemu, resets)
                quiet_until = time.monotonic() + options.boot_quiet
                log(f"reset {resets}")
                continue
            other = [e for e in events if e["event"] == "SHUTDOWN"]
            if other:
                raise SystemExit(f"persistent_flash: the guest shut down: {other[0].get('data')}")
            if qemu.process.poll() is not None:
                raise SystemExit(f"persistent_flash: QEMU ended by itself with status {qemu.process.returncode}")
    except (RuntimeError, OSError) as error:
        raise SystemExit(f"persistent_flash: {error}")
    finally:
        if qemu is not None:
            qemu.kill()
        if client is not None:
            client.close()
        listener.close()


if __name__ == "__main__":
    main()
