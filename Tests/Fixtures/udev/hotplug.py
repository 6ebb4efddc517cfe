"""Hot-plug scenarios for `smpctl ports --wait`, on umockdev's GI API.

Run under umockdev's preload, with the system Python (it has python3-gi):

    umockdev-wrapper /usr/bin/python3 Tests/Fixtures/udev/hotplug.py SMPCTL SCENARIO

Scenarios (a Zephyr 2fe3:0100 CDC ACM device with serial number SERIAL):
  appear     `--wait serial-number=SERIAL --poll-interval 30` runs; 0.5 s later the USB device,
             its interface and ttyACM0 are added and their "add" uevents sent. Polling is too
             slow to matter, so the udev monitor must find it.
  quiet      the device is attached with another serial number; `--wait serial-number=SERIAL
             --poll-interval 0.1` runs; 0.5 s later the serial number becomes SERIAL, with no
             uevent (as without udevd, where the monitor hears nothing): polling must find it.
  probe      serial-ports.umockdev is loaded; ttyACM0 answers SMP echo requests (on the pty master
             of umockdev's node, with SMP serial framing), ttyACM1 stays silent. `ports --probe`
             must report "answered" and "silent".
  renumber   the device is attached as ttyACM0 (`ports --json` lists it), then removed
             ("remove" uevents, remove_device); `--wait serial-number=SERIAL` runs and the same
             device comes back as ttyACM1, as after a reset: smpctl must print /dev/ttyACM1.

Or `hotplug.py reset SESSION-COMMAND...`: a device on ttyACM0 answers echo and reset; after the
reset it leaves sysfs, its tty hangs up, and it comes back as ttyACM1 with the same serial number.
SESSION-COMMAND (an XCTest re-run under the preload, with SMPCTL_UMOCKDEV_SESSION=inside) must
carry on across that; the harness exits with its status.

Or `hotplug.py upgrade UDP-PORT SESSION-COMMAND...`: the same re-enumeration, but the tty is
bridged to a virtual device (SMPSimulator) served at udp 127.0.0.1:UDP-PORT, which answers every
request and performs the reset (its resetDelay and bootTime give the timing); SESSION-COMMAND is
e.g. `smpctl upgrade FILE -c serial:serial-number=SERIAL`. The RESULT document holds its output
and how many messages went over each tty.

Or `hotplug.py bootloader UDP-PORT SESSION-COMMAND...`: the same, with two resets: the device
comes back first under USB product ID 000b (as a bootloader with its own ID would), then under
0100 again (e.g. `smpctl upgrade FILE --via-bootloader`).

Or `hotplug.py rack UDP-PORT-A UDP-PORT-B SESSION-COMMAND...`: two boards, RACKA0001 on ttyACM0
(USB port 1-2) and RACKB0002 on ttyACM1 (1-3), each bridged to its own virtual device; after
their resets they come back with their node names swapped (A on ttyACM1, B on ttyACM0), e.g.
`smpctl upgrade FILE --targets FILE`. `rack-lost`: the same, but B never comes back. The RESULT
holds the session's status (the harness exits 0 whenever the session ended in time), the nodes
each board had and the messages bridged per board and node.

Prints `RESULT {json}` (the scenario, smpctl's document, how it found the port) and exits 0 when
the scenario passed; otherwise prints what went wrong and exits 1.
"""

import base64
import binascii
import functools
import json
import os
import select
import socket
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time

import gi

gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev  # noqa: E402

SERIAL = "XYZ0123456789"
DELAY = 0.5


def add_device(testbed, node, minor, announce, serial=SERIAL):
    """Adds the USB device, its CDC ACM interface and the tty; returns their sysfs paths, tty first."""
    usb = testbed.add_device(
        "usb", "usb1/1-2", None,
        ["idVendor", "2fe3", "idProduct", "0100", "bcdDevice", "0401", "manufacturer", "ZEPHYR",
         "product", "USB-DEV", "serial", serial, "bNumInterfaces", " 2"],
        ["DEVTYPE", "usb_device", "DRIVER", "usb", "PRODUCT", "2fe3/100/401"])
    testbed.set_attribute_link(usb, "driver", "../../../bus/usb/drivers/usb")
    interface = testbed.add_device(
        "usb", "1-2:1.0", usb,
        ["bInterfaceNumber", "00", "bInterfaceClass", "02"],
        ["DEVTYPE", "usb_interface", "DRIVER", "cdc_acm", "INTERFACE", "2/2/1"])
    testbed.set_attribute_link(interface, "driver", "../../../../bus/usb/drivers/cdc_acm")
    tty = testbed.add_device(
        "tty", node, interface,
        ["dev", "166:%d" % minor],
        ["DEVNAME", "/dev/" + node, "MAJOR", "166", "MINOR", str(minor)])
    if announce:
        for path in (usb, interface, tty):
            testbed.uevent(path, "add")
    return [tty, interface, usb]


def remove_device(testbed, paths):
    """Sends the "remove" uevents, child first as the kernel does, and removes the devices."""
    for path in paths:
        testbed.uevent(path, "remove")
    for path in paths:
        testbed.remove_device(path)


def cbor_text_map(data):
    """Decodes a CBOR map of text keys to text values (definite or indefinite); {} if it is not one."""
    def length(info, index):
        if info < 24:
            return info, index
        size = {24: 1, 25: 2, 26: 4}.get(info)
        if size is None:
            raise ValueError("length")
        return int.from_bytes(data[index:index + size], "big"), index + size

    def text(index):
        if data[index] >> 5 != 3:
            raise ValueError("not text")
        count, index = length(data[index] & 0x1F, index + 1)
        return data[index:index + count].decode(), index + count

    result = {}
    if data[0] == 0xBF:
        index = 1
        while data[index] != 0xFF:
            key, index = text(index)
            result[key], index = text(index)
        return result
    if data[0] >> 5 != 5:
        return {}
    count, index = length(data[0] & 0x1F, 1)
    for _ in range(count):
        key, index = text(index)
        result[key], index = text(index)
    return result


def cbor_text(value):
    encoded = value.encode()
    head = bytes([0x60 + len(encoded)]) if len(encoded) < 24 else bytes([0x78, len(encoded)])
    return head + encoded


def serial_lines(message):
    """An SMP message as SMP-over-console lines: 0x06 0x09 first, 0x04 0x14 after, 124 base64 characters each."""
    crc = binascii.crc_hqx(message, 0)
    text = base64.b64encode(struct.pack(">H", len(message) + 2) + message + struct.pack(">H", crc))
    pieces = [text[i:i + 124] for i in range(0, len(text), 124)]
    return b"".join((b"\x06\x09" if i == 0 else b"\x04\x14") + piece + b"\n" for i, piece in enumerate(pieces))


class ConsoleFrames:
    """Reassembles the SMP messages the host writes to the tty as SMP-over-console lines."""

    def __init__(self):
        self.buffer, self.packet = b"", b""

    def feed(self, data):
        """Takes bytes read from the tty; returns the messages they complete."""
        self.buffer += data
        messages = []
        while b"\n" in self.buffer:
            line, self.buffer = self.buffer.split(b"\n", 1)
            if line.startswith(b"\x06\x09"):
                self.packet = base64.b64decode(line[2:])
            elif line.startswith(b"\x04\x14"):
                self.packet += base64.b64decode(line[2:])
            else:
                continue
            if len(self.packet) >= 2 and len(self.packet) - 2 >= struct.unpack(">H", self.packet[:2])[0]:
                messages.append(self.packet[2:-2])
                self.packet = b""
        return messages


def read_tty(master):
    """What the host wrote to the tty; b"" while nobody has it open (EIO)."""
    try:
        return os.read(master, 4096)
    except OSError:
        time.sleep(0.01)
        return b""


def go_away(master, on_reset, hang_up):
    """After the answer to a reset: tells the harness (`on_reset`), waits until it has removed the
    device (`hang_up`) and closes the master, so the host sees its tty hang up as when a USB
    device goes away."""
    on_reset()
    hang_up.wait(timeout=30)
    os.close(master)


def answer_echoes(testbed, node, stop, on_reset=None, hang_up=None):
    """Plays the device: answers every SMP echo request on the tty until `stop` is set; with
    `on_reset`, also answers an OS reset request and then goes away (`go_away`)."""
    master = device_fd(testbed, node)
    frames = ConsoleFrames()
    while not stop.is_set():
        if not select.select([master], [], [], 0.05)[0]:
            continue
        for message in frames.feed(read_tty(master)):
            operation, flags, _, group, sequence, command = struct.unpack(">BBHHBB", message[:8])
            is_reset = on_reset is not None and command == 5
            if operation & 0x07 != 2 or group != 0 or command not in (0, 5) or (command == 5 and not is_reset):
                continue
            if is_reset:
                payload = b"\xa0"
            else:
                payload = b"\xa1" + cbor_text("r") + cbor_text(cbor_text_map(message[8:]).get("d", ""))
            header = struct.pack(">BBHHBB", (operation & 0x18) | 3, flags, len(payload), group, sequence, command)
            os.write(master, serial_lines(header + payload))
            if is_reset:
                go_away(master, on_reset, hang_up)
                return


# Per tty node, the SMP messages the bridge carried to the virtual device.
BRIDGED = {}


def bridge(port, testbed, node, stop, on_reset=None, hang_up=None, counted_as=None):
    """Plays the device with our virtual device at udp 127.0.0.1:`port`: every SMP message the
    host writes to the tty goes to it as one datagram, and every answer comes back onto the tty as
    console lines, until `stop` is set. With `on_reset`, the answer to an OS reset request (group
    0, command 5) ends it (`go_away`) while the virtual device performs its reset. The messages
    are counted in BRIDGED under `counted_as` (default: the node)."""
    master = device_fd(testbed, node)
    frames = ConsoleFrames()
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
        udp.connect(("127.0.0.1", port))
        while not stop.is_set():
            readable = select.select([master, udp], [], [], 0.05)[0]
            if master in readable:
                for message in frames.feed(read_tty(master)):
                    udp.send(message)
                    key = counted_as or node
                    BRIDGED[key] = BRIDGED.get(key, 0) + 1
            if udp in readable:
                answer = udp.recv(65536)
                os.write(master, serial_lines(answer))
                operation, _, _, group, _, command = struct.unpack(">BBHHBB", answer[:8])
                if on_reset is not None and (operation & 0x07, group, command) == (3, 0, 5):
                    go_away(master, on_reset, hang_up)
                    return


def probe(smpctl, testbed):
    # Nodes of the .umockdev format are ptys whose master get_dev_fd gives (add_device's are not).
    testbed.add_from_file(os.path.join(os.path.dirname(os.path.abspath(__file__)), "serial-ports.umockdev"))
    stop = threading.Event()
    device = threading.Thread(target=answer_echoes, args=(testbed, "/dev/ttyACM0", stop), daemon=True)
    device.start()
    run = subprocess.run([smpctl, "ports", "--probe", "--probe-timeout", "2", "--json", "-v"],
                         capture_output=True, text=True, timeout=30)
    stop.set()
    if run.returncode != 0:
        fail("probe", "smpctl exited with %d" % run.returncode, run.stdout, run.stderr)
    try:
        results = {port["path"]: port["probe"] for port in json.loads(run.stdout)["ports"]}
    except (ValueError, KeyError, IndexError, TypeError) as error:
        fail("probe", "unexpected output (%s)" % error, run.stdout, run.stderr)
    answering, silent = results.get("/dev/ttyACM0") or {}, results.get("/dev/ttyACM1") or {}
    if answering.get("result") != "answered" or silent.get("result") != "silent":
        fail("probe", "ttyACM0 (answers) got %s, ttyACM1 (silent) got %s" % (answering, silent), run.stdout, run.stderr)
    print("RESULT " + json.dumps({"scenario": "probe", "probes": results, "stderr": run.stderr}))
    sys.exit(0)


def start_wait(smpctl, poll_interval):
    return subprocess.Popen(
        [smpctl, "ports", "--wait", "serial-number=" + SERIAL, "--wait-timeout", "10", "--json", "-v",
         "--poll-interval", str(poll_interval)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish(child, scenario, expected_path, expected_detection):
    try:
        stdout, stderr = child.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        child.kill()
        stdout, stderr = child.communicate()
        fail(scenario, "smpctl did not exit", stdout, stderr)
    if child.returncode != 0:
        fail(scenario, "smpctl exited with %d" % child.returncode, stdout, stderr)
    try:
        document = json.loads(stdout)
        port = document["ports"][0]
        found_by = document["wait"]["foundBy"]
    except (ValueError, KeyError, IndexError, TypeError) as error:
        fail(scenario, "unexpected output (%s)" % error, stdout, stderr)
    if port["path"] != expected_path or port["usb"]["serialNumber"] != SERIAL:
        fail(scenario, "found %s, expected %s" % (port["path"], expected_path), stdout, stderr)
    if expected_detection and found_by != expected_detection:
        fail(scenario, "found by %s, expected %s" % (found_by, expected_detection), stdout, stderr)
    print("RESULT " + json.dumps({"scenario": scenario, "foundBy": found_by, "document": document, "stderr": stderr}))
    sys.exit(0)


USB = "/devices/pci0000:00/0000:00:14.0/usb1/"


def device_record(node, minor, product="0100", serial=SERIAL, port="1-2", devnum=None, with_node=True):
    """A .umockdev record of the Zephyr device (USB device, CDC ACM interface, tty) at `node`
    with USB product ID `product` and serial number `serial`, plugged into USB port `port`:
    umockdev backs the nodes of such records with ptys, whose master plays the device. Like a
    re-enumerated USB device, each one gets a new USB device number (`devnum`, by default 5 + `minor`).
    Without `with_node`, the record makes no node in /dev (`reuse_node` makes it)."""
    usb = USB + port
    devnum = 5 + minor if devnum is None else devnum
    return "\n".join(line for line in [
        "P: " + usb, "N: bus/usb/001/%03d" % devnum, "E: DEVNAME=bus/usb/001/%03d" % devnum, "E: DEVTYPE=usb_device",
        "E: DRIVER=usb", "E: PRODUCT=2fe3/%x/401" % int(product, 16), "E: MAJOR=189", "E: MINOR=%d" % (devnum - 1), "E: SUBSYSTEM=usb",
        "A: idVendor=2fe3", "A: idProduct=" + product, "A: bcdDevice=0401", "A: manufacturer=ZEPHYR", "A: product=USB-DEV",
        "A: serial=" + serial, "A: bNumInterfaces= 2", "L: driver=../../../../../bus/usb/drivers/usb", "",
        "P: %s/%s:1.0" % (usb, port), "E: DEVTYPE=usb_interface", "E: DRIVER=cdc_acm", "E: INTERFACE=2/2/1", "E: SUBSYSTEM=usb",
        "A: bInterfaceNumber=00", "A: bInterfaceClass=02", "L: driver=../../../../../../bus/usb/drivers/cdc_acm", "",
        "P: %s/%s:1.0/tty/%s" % (usb, port, node), "N: " + node if with_node else None, "E: DEVNAME=" + node, "E: MAJOR=166", "E: MINOR=%d" % minor,
        "E: SUBSYSTEM=tty", "A: dev=166:%d" % minor, "",
    ] if line is not None)


def unplug(testbed, node, port="1-2"):
    """The record's device leaves sysfs (tty, interface, USB device), as the kernel removes it."""
    usb = "/sys" + USB + port
    remove_device(testbed, ["%s/%s:1.0/tty/%s" % (usb, port, node), "%s/%s:1.0" % (usb, port), usb])


# Nodes made again after umockdev's own went away: node → the master of our pty.
REUSED = {}


def device_fd(testbed, node):
    """The master of the pty behind `node` ("/dev/ttyACM0")."""
    return REUSED.get(node) or testbed.get_dev_fd(node)


def reuse_node(testbed, node):
    """Makes /dev/`node` again, once umockdev's pty for it is gone: umockdev keeps the names of
    the nodes it made and refuses to make one twice, so this does what it does (a pty in raw mode
    whose slave the node links to) with a pty of our own."""
    master, slave = os.openpty()
    attributes = termios.tcgetattr(master)
    attributes[0] &= ~(termios.IGNCR | termios.INLCR | termios.ICRNL)
    attributes[1] &= ~(termios.ONLCR | termios.OCRNL)
    attributes[3] &= ~(termios.ICANON | termios.ECHO)
    termios.tcsetattr(master, termios.TCSANOW, attributes)
    path = os.path.join(testbed.get_root_dir(), "dev", node)
    os.symlink(os.ttyname(slave), path)
    os.close(slave)
    REUSED["/dev/" + node] = master


def plug(testbed, node, minor, product="0100", serial=SERIAL, port="1-2", devnum=None):
    """The device comes back at `node` (a name used before, too) and its tty's "add" uevent is sent."""
    used = device_fd(testbed, "/dev/" + node) >= 0
    testbed.add_from_string(device_record(node, minor, product, serial, port, devnum, with_node=not used))
    if used:
        reuse_node(testbed, node)
    testbed.uevent("/sys%s%s/%s:1.0/tty/%s" % (USB, port, port, node), "add")


def start_session(session):
    """Starts the session command, whose output goes to files, not pipes (nobody reads them
    before it exits)."""
    # Through os.environ (putenv), not env=: the child must also inherit UMOCKDEV_DIR, which
    # umockdev set in the C environment only.
    os.environ["SMPCTL_UMOCKDEV_SESSION"] = "inside"
    files = (tempfile.TemporaryFile(), tempfile.TemporaryFile())
    child = subprocess.Popen(session, stdout=files[0], stderr=files[1])
    child.files = files
    return child


def end_session(child, deadline):
    """Waits for the session until `deadline` (then kills it), prints its output and returns it
    as [stdout, stderr]."""
    try:
        child.wait(timeout=max(1, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
    output = []
    for file in child.files:
        file.seek(0)
        output.append(file.read().decode(errors="replace"))
    print(output[0] + output[1])
    return output


def reenumerate(scenario, testbed, play, session, timeout, products=("0100",)):
    """A session talks to the device on ttyACM0, played by `play(testbed, node, stop, on_reset,
    hang_up)`; each time the device has answered an OS reset, it disappears and comes back as the
    next ttyACMn with the same serial number and the next USB product ID of `products` (a
    bootloader often has its own), like a USB device that re-enumerates; the session must carry
    on. Prints the session's output and `RESULT {json}`; exits with the session's status."""
    testbed.add_from_string(device_record("ttyACM0", 0, products[0]))
    stop = threading.Event()
    child = start_session(session)
    deadline = time.monotonic() + timeout
    resets, placeholders = 0, []
    while True:
        node = "ttyACM%d" % resets
        last = resets == len(products) - 1
        was_reset, hang_up = threading.Event(), threading.Event()
        on_reset = None if last else was_reset.set
        device = threading.Thread(target=play, args=(testbed, "/dev/" + node, stop, on_reset, hang_up), daemon=True)
        device.start()
        if last:
            break
        while not was_reset.wait(timeout=0.1) and child.poll() is None and time.monotonic() < deadline:
            pass
        if not was_reset.is_set():
            break
        resets += 1
        # As the kernel does: the device leaves sysfs, and its tty hangs up.
        unplug(testbed, node)
        hang_up.set()
        device.join()
        # Closing the master freed its /dev/pts number; umockdev's pty map still names it, and
        # would abort if the new device's pty got it again: keep it taken.
        placeholders.append(os.openpty())
        time.sleep(DELAY)
        plug(testbed, "ttyACM%d" % resets, resets, products[resets])
    output = end_session(child, deadline)
    stop.set()
    print("RESULT " + json.dumps({"scenario": scenario, "resets": resets, "status": child.returncode,
                                  "stdout": output[0], "stderr": output[1], "bridged": BRIDGED}))
    sys.exit(0 if child.returncode == 0 and resets == len(products) - 1 else 1)


class Board:
    """One USB board of a rack: its serial number, its USB port, the UDP port of the virtual
    device its tty is bridged to, and the nodes it had, in order."""

    def __init__(self, serial, port, udp_port, node, returns=True):
        self.serial, self.port, self.udp_port, self.returns = serial, port, udp_port, returns
        self.nodes, self.gone_at, self.placeholder = [node], None, None
        self.was_reset, self.hang_up, self.thread = threading.Event(), threading.Event(), None

    @property
    def node(self):
        return self.nodes[-1]

    def play(self, testbed, stop, first):
        """Plugs the board in at its node (not the first time: the records are loaded) and bridges
        its tty; only the first life answers a reset by going away."""
        if not first:
            plug(testbed, self.node, int(self.node[len("ttyACM"):]), serial=self.serial, port=self.port,
                 devnum=10 + len(self.nodes) * 2 + (self.port == "1-3"))
        on_reset = self.was_reset.set if first else None
        self.thread = threading.Thread(
            target=bridge, args=(self.udp_port, testbed, "/dev/" + self.node, stop, on_reset, self.hang_up),
            kwargs={"counted_as": "%s /dev/%s" % (self.serial, self.node)}, daemon=True)
        self.thread.start()


def rack(scenario, testbed, boards, session, timeout):
    """Two boards upgraded at once (a rack): each board's tty is bridged to its own virtual
    device; when a board has answered its reset it leaves sysfs, and once both have left (or 5 s
    after it left) it comes back on the node its neighbour had, while the neighbour takes its
    node: the node names swap, as when two boards of a rack re-enumerate in the other order. A
    board made with `returns=False` never comes back. Prints `RESULT {json}` with the session's
    status, output and the nodes each board had; exits 0 when the session ended in time."""
    testbed.add_from_string("\n".join(
        device_record(board.node, minor, serial=board.serial, port=board.port, devnum=5 + minor)
        for minor, board in enumerate(boards)))
    stop = threading.Event()
    for board in boards:
        board.play(testbed, stop, first=True)
    child = start_session(session)
    deadline = time.monotonic() + timeout
    while child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
        for board in boards:
            if board.was_reset.is_set() and board.gone_at is None:
                # As the kernel does: the board leaves sysfs, and its tty hangs up.
                unplug(testbed, board.node, board.port)
                board.hang_up.set()
                board.thread.join()
                # As in reenumerate: keep the freed /dev/pts number taken.
                board.placeholder = os.openpty()
                board.gone_at = time.monotonic()
        away = [board for board in boards if board.gone_at is not None and len(board.nodes) == 1]
        everyone_left = all(board.gone_at is not None for board in boards)
        for board in away:
            waited = time.monotonic() - board.gone_at
            if not board.returns or waited < DELAY or not (everyone_left or waited > 5):
                continue
            taken = {other.node for other in boards if other.gone_at is None or len(other.nodes) > 1}
            neighbours = [other.nodes[0] for other in boards if other is not board and other.nodes[0] not in taken]
            free = neighbours or ["ttyACM%d" % n for n in range(len(boards), 16) if "ttyACM%d" % n not in taken]
            board.nodes.append(free[0])
            board.play(testbed, stop, first=False)
    output = end_session(child, deadline)
    stop.set()
    print("RESULT " + json.dumps({
        "scenario": scenario, "status": child.returncode, "stdout": output[0], "stderr": output[1], "bridged": BRIDGED,
        "nodes": {board.serial: ["/dev/" + node for node in board.nodes] for board in boards}}))
    sys.exit(0 if time.monotonic() < deadline else 1)


def fail(scenario, problem, stdout, stderr):
    print("FAILED %s: %s\n--- smpctl stdout:\n%s--- smpctl stderr:\n%s---" % (scenario, problem, stdout, stderr))
    sys.exit(1)


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "reset":
        reenumerate("reset", UMockdev.Testbed.new(), answer_echoes, sys.argv[2:], timeout=60, products=("0100", "0100"))
    if len(sys.argv) >= 4 and sys.argv[1] == "upgrade" and sys.argv[2].isdigit():
        reenumerate("upgrade", UMockdev.Testbed.new(), functools.partial(bridge, int(sys.argv[2])), sys.argv[3:], timeout=120,
                    products=("0100", "0100"))
    if len(sys.argv) >= 4 and sys.argv[1] == "bootloader" and sys.argv[2].isdigit():
        # Application, then MCUboot's recovery under another product ID, then the application.
        reenumerate("bootloader", UMockdev.Testbed.new(), functools.partial(bridge, int(sys.argv[2])), sys.argv[3:], timeout=120,
                    products=("0100", "000b", "0100"))
    if len(sys.argv) >= 5 and sys.argv[1] in ("rack", "rack-lost") and sys.argv[2].isdigit() and sys.argv[3].isdigit():
        boards = [Board("RACKA0001", "1-2", int(sys.argv[2]), "ttyACM0"),
                  Board("RACKB0002", "1-3", int(sys.argv[3]), "ttyACM1", returns=sys.argv[1] == "rack")]
        rack(sys.argv[1], UMockdev.Testbed.new(), boards, sys.argv[4:], timeout=60)
    if len(sys.argv) != 3 or sys.argv[2] not in ("appear", "quiet", "probe", "renumber"):
        sys.exit("usage: hotplug.py SMPCTL appear|quiet|probe|renumber, hotplug.py reset SESSION-COMMAND..., "
                 "hotplug.py upgrade UDP-PORT SESSION-COMMAND..., or hotplug.py bootloader UDP-PORT SESSION-COMMAND..., "
                 "or hotplug.py rack|rack-lost UDP-PORT-A UDP-PORT-B SESSION-COMMAND...")
    smpctl, scenario = sys.argv[1], sys.argv[2]
    # Creating the testbed sets UMOCKDEV_DIR, which smpctl inherits with the preload.
    testbed = UMockdev.Testbed.new()
    if scenario == "probe":
        probe(smpctl, testbed)
    if scenario == "renumber":
        first = add_device(testbed, "ttyACM0", 0, announce=True)
        listed = subprocess.run([smpctl, "ports", "--json"], capture_output=True, text=True, timeout=15)
        paths = [port["path"] for port in json.loads(listed.stdout or "{}").get("ports", [])]
        if paths != ["/dev/ttyACM0"]:
            fail(scenario, "before the removal, ports listed %s" % paths, listed.stdout, listed.stderr)
        remove_device(testbed, first)
        child = start_wait(smpctl, 0.2)
        time.sleep(DELAY)
        add_device(testbed, "ttyACM1", 1, announce=True)
        finish(child, scenario, "/dev/ttyACM1", None)
    if scenario == "appear":
        child = start_wait(smpctl, 30)
        time.sleep(DELAY)
        add_device(testbed, "ttyACM0", 0, announce=True)
    else:
        # umockdev announces every device it adds, so the quiet device is there from the start
        # with another serial number, and takes SERIAL later without any uevent.
        usb = add_device(testbed, "ttyACM0", 0, announce=False, serial="NOT-YET")[-1]
        child = start_wait(smpctl, 0.1)
        time.sleep(DELAY)
        testbed.set_attribute(usb, "serial", SERIAL)
    finish(child, scenario, "/dev/ttyACM0", "monitor" if scenario == "appear" else "polling")


if __name__ == "__main__":
    main()
