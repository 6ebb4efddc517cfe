#!/usr/bin/python3
"""Drives mock_bluez.py end to end with dbus-python, against real `smpctl simulate --udp` devices (SMP and Nordic DFU).

Usage: /usr/bin/python3 Tests/Fixtures/bluez/selfcheck.py [PATH_TO_SMPCTL]   (default .build/debug/smpctl)
It starts its own private bus, virtual SMP device and mock, prints one line per check and
`N passed, N failed`, and exits 1 when a check failed. A tool for working on the mock, not run by CI.
"""

import os
import re
import socket
import subprocess
import sys
import time

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
DEVICE_PATH = "/org/bluez/hci0/dev_C0_FF_EE_00_00_01"
CHAR_PATH = DEVICE_PATH + "/service000a/char000b"
SMP_SERVICE_UUID = "8d53dc1d-1db7-4cd3-868b-8a527460aa84"


def smp_request(op, group, command, seq, body):
    return bytes([op, 0]) + len(body).to_bytes(2, "big") + group.to_bytes(2, "big") + bytes([seq, command]) + body


def echo_request(text, seq):
    data = text.encode()
    if len(data) < 24:
        header = bytes([0x60 | len(data)])
    elif len(data) < 256:
        header = bytes([0x78, len(data)])
    else:
        header = bytes([0x79]) + len(data).to_bytes(2, "big")
    return smp_request(2, 0, 0, seq, b"\xa1\x61d" + header + data)


class Check:
    def __init__(self):
        dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
        self.processes = []
        self.passed = self.failed = 0
        self.signals = []

    def start(self, smpctl):
        bus = subprocess.Popen(["dbus-daemon", "--config-file=" + os.path.join(HERE, "private-system-bus.conf"),
                                "--nofork", "--print-address=1"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.processes.append(bus)
        self.address = bus.stdout.readline().strip()
        device = subprocess.Popen([smpctl, "simulate", "--udp", "127.0.0.1:0"], stdout=subprocess.PIPE, text=True)
        self.processes.append(device)
        self.port = int(re.search(r"udp:127\.0\.0\.1:(\d+)", device.stdout.readline()).group(1))
        self.bus = dbus.bus.BusConnection(self.address)
        self.bus.add_signal_receiver(self._signal, sender_keyword="sender", path_keyword="path",
                                     member_keyword="member", bus_name="org.bluez")

    def start_dfu_device(self, smpctl, *options):
        """A Nordic DFU device behind the bridge (smpctl simulate --nordic-dfu --udp); returns its port."""
        device = subprocess.Popen([smpctl, "simulate", "--nordic-dfu", "--udp", "127.0.0.1:0"] + list(options),
                                  stdout=subprocess.PIPE, text=True)
        self.processes.append(device)
        return int(re.search(r"udp:127\.0\.0\.1:(\d+)", device.stdout.readline()).group(1))

    def start_mock(self, *arguments):
        environment = dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=self.address)
        mock = subprocess.Popen(["/usr/bin/python3", os.path.join(HERE, "mock_bluez.py"), "--smp-port", str(self.port)]
                                + list(arguments), stdout=subprocess.PIPE, env=environment, text=True)
        assert mock.stdout.readline().strip() == "READY"
        self.mock = mock
        self.pump(0.05)
        self.signals = []

    def stop_mock(self):
        self.mock.terminate()
        self.mock.wait(5)

    def _signal(self, *args, sender=None, path=None, member=None):
        self.signals.append((member, str(path), args))

    def pump(self, seconds=0.0, until=None):
        deadline = time.monotonic() + seconds
        context = GLib.MainContext.default()
        while True:
            while context.iteration(False):
                pass
            if until is not None and until():
                return True
            if time.monotonic() >= deadline:
                return until is None
            time.sleep(0.005)

    def check(self, name, condition, detail=""):
        if condition:
            self.passed += 1
            print("ok   " + name)
        else:
            self.failed += 1
            print("FAIL " + name + (": " + str(detail) if detail else ""))

    def expect_error(self, name, call, error_name, message=None):
        try:
            call()
        except dbus.DBusException as failure:
            ok = failure.get_dbus_name() == error_name and (message is None or failure.get_dbus_message() == message)
            self.check(name, ok, "%s %s" % (failure.get_dbus_name(), failure.get_dbus_message()))
            return
        self.check(name, False, "no error")

    def expect_no_error(self, name, call):
        try:
            self.last_result = call()
        except dbus.DBusException as failure:
            self.check(name, False, "%s %s" % (failure.get_dbus_name(), failure.get_dbus_message()))
            raise
        self.check(name, True)

    def interface(self, path, name):
        return dbus.Interface(self.bus.get_object("org.bluez", path), name)

    def prop(self, path, iface, name):
        return self.interface(path, "org.freedesktop.DBus.Properties").Get(iface, name)

    def control(self):
        return self.interface("/org/bluez/mock", "org.bluez.mock.Control1")

    def stats(self):
        return {str(k): int(v) for k, v in self.control().GetStats().items()}

    def notifications(self):
        return b"".join(bytes(args[1]["Value"]) for member, path, args in self.signals
                        if member == "PropertiesChanged" and path.endswith("/char000b") and "Value" in args[1])

    def stop(self):
        for process in reversed(self.processes):
            process.terminate()
            process.wait(5)


def read_message(sock, timeout=3.0):
    """Reassembles one SMP message from SEQPACKET notifications."""
    sock.settimeout(timeout)
    data = b""
    while len(data) < 8 or len(data) < 8 + int.from_bytes(data[2:4], "big"):
        chunk = sock.recv(4096)
        if not chunk:
            raise EOFError("notify fd closed")
        data += chunk
    return data


def discovery_and_connect(c):
    adapter = c.interface("/org/bluez/hci0", "org.bluez.Adapter1")
    objects = c.interface("/", "org.freedesktop.DBus.ObjectManager").GetManagedObjects()
    c.check("adapter present, device not yet known", "/org/bluez/hci0" in objects and DEVICE_PATH not in objects)
    c.expect_error("filter with an unknown key", lambda: adapter.SetDiscoveryFilter({"Colour": "red"}),
                   "org.bluez.Error.InvalidArguments")
    c.expect_error("filter with a bad transport", lambda: adapter.SetDiscoveryFilter({"Transport": "usb"}),
                   "org.bluez.Error.InvalidArguments")
    adapter.SetDiscoveryFilter({"UUIDs": dbus.Array([SMP_SERVICE_UUID], signature="s"), "Transport": "le"})
    adapter.StartDiscovery()
    c.expect_error("second StartDiscovery", adapter.StartDiscovery, "org.bluez.Error.InProgress")
    found = c.pump(3, lambda: any(m == "InterfacesAdded" and str(a[0]) == DEVICE_PATH for m, _, a in c.signals))
    c.check("device appears by InterfacesAdded while discovering", found)
    adapter.StopDiscovery()
    c.expect_error("StopDiscovery without a start", adapter.StopDiscovery, "org.bluez.Error.Failed",
                   "No discovery started")
    c.signals = []
    c.interface(DEVICE_PATH, "org.bluez.Device1").Connect(timeout=10)
    c.pump(0.1)
    names = [str(a[0]) if m == "InterfacesAdded" else name for m, p, a in c.signals
             for name in ([None] if m == "InterfacesAdded" else a[1].keys() if p == DEVICE_PATH else [])]
    expected = ["Connected", DEVICE_PATH + "/service000a", CHAR_PATH, CHAR_PATH + "/desc000d"]
    c.check("connect order", names[:4] == expected and "ServicesResolved" in names[4:], names)
    c.check("MTU property", int(c.prop(CHAR_PATH, "org.bluez.GattCharacteristic1", "MTU")) == 247)


def write_value_path(c):
    char = c.interface(CHAR_PATH, "org.bluez.GattCharacteristic1")
    c.expect_error("request write on write-without-response", lambda: char.WriteValue(b"x", {"type": "request"}),
                   "org.bluez.Error.NotSupported")
    c.expect_error("oversize WriteValue", lambda: char.WriteValue(b"\0" * 245, {"type": "command"}),
                   "org.bluez.Error.Failed", "Failed to initiate write")
    char.StartNotify()
    c.signals = []
    request = echo_request("hello over WriteValue " * 20, 1)
    for start in range(0, len(request), 244):
        char.WriteValue(dbus.ByteArray(request[start:start + 244]), {"type": "command"})
    c.pump(3, lambda: len(c.notifications()) >= 8 and len(c.notifications()) >= 8 + int.from_bytes(c.notifications()[2:4], "big"))
    answer = c.notifications()
    c.check("echo over WriteValue + PropertiesChanged", answer[0] == 3 and b"\x61r" in answer and
            ("hello over WriteValue " * 20).encode() in answer, answer[:16])
    c.expect_error("AcquireNotify while StartNotify", lambda: char.AcquireNotify({}), "org.bluez.Error.InProgress")
    char.StopNotify()
    c.expect_error("StopNotify twice", char.StopNotify, "org.bluez.Error.Failed", "No notify session started")


def acquired_path(c):
    char = c.interface(CHAR_PATH, "org.bluez.GattCharacteristic1")
    notify_fd, mtu = char.AcquireNotify({})
    write_fd, _ = char.AcquireWrite({})
    c.check("acquire returns the MTU", int(mtu) == 247)
    c.expect_error("StartNotify while acquired", char.StartNotify, "org.bluez.Error.NotPermitted", "Notify acquired")
    c.expect_error("WriteValue while acquired", lambda: char.WriteValue(b"x", {}), "org.bluez.Error.NotPermitted",
                   "Write acquired")
    notify = socket.socket(fileno=notify_fd.take())
    write = socket.socket(fileno=write_fd.take())
    request = echo_request("acquired " * 100, 2)
    for start in range(0, len(request), 244):
        write.send(request[start:start + 244])
    answer = read_message(notify)
    c.check("echo over AcquireWrite + AcquireNotify", answer[0] == 3 and ("acquired " * 100).encode() in answer, answer[:16])
    write.send(b"\0" * 300)
    c.pump(0.2)
    c.check("oversize datagram dropped and counted", c.stats()["oversize_drops"] == 1)
    write.close()
    c.expect_no_error("closing the write fd releases it: acquiring again at once works",
                      lambda: char.AcquireWrite({}))
    write = socket.socket(fileno=c.last_result[0].take())
    c.check("WriteAcquired while held", c.prop(CHAR_PATH, "org.bluez.GattCharacteristic1", "WriteAcquired"))
    return notify, write


def link_loss(c, notify, write):
    c.control().DropLink()
    notify.settimeout(2)
    c.check("notify fd sees EOF on link loss", notify.recv(10) == b"")
    notify.close()
    write.close()
    c.pump(0.1)
    c.check("Connected=false after link loss", not c.prop(DEVICE_PATH, "org.bluez.Device1", "Connected"))
    c.check("GATT objects removed", CHAR_PATH not in c.interface("/", "org.freedesktop.DBus.ObjectManager").GetManagedObjects())
    device = c.interface(DEVICE_PATH, "org.bluez.Device1")
    c.control().FailNext("Connect", "Failed", "injected")
    c.expect_error("FailNext injects one error", lambda: device.Connect(timeout=10), "org.bluez.Error.Failed", "injected")
    device.Connect(timeout=10)
    c.check("reconnect after an injected error", c.prop(DEVICE_PATH, "org.bluez.Device1", "ServicesResolved"))


def reset_drops_link(c):
    char = c.interface(CHAR_PATH, "org.bluez.GattCharacteristic1")
    notify_fd, _ = char.AcquireNotify({})
    notify = socket.socket(fileno=notify_fd.take())
    char.WriteValue(dbus.ByteArray(smp_request(2, 0, 5, 9, b"\xa0")), {})
    answer = read_message(notify)
    c.check("reset answered", answer[0] == 3 and answer[7] == 5, answer)
    notify.settimeout(2)
    c.check("link drops after the reset answer", notify.recv(10) == b"")
    notify.close()
    device = c.interface(DEVICE_PATH, "org.bluez.Device1")
    c.expect_error("Connect while rebooting fails", lambda: device.Connect(timeout=10), "org.bluez.Error.Failed",
                   "le-connection-abort-by-local")
    time.sleep(1.0)
    device.Connect(timeout=10)
    c.check("Connect after the reboot", c.prop(DEVICE_PATH, "org.bluez.Device1", "Connected"))
    stats = c.stats()
    c.check("stats count requests and resets", stats["resets"] == 1 and stats["smp_requests"] == 3, stats)


def pairing(c):
    device = c.interface(DEVICE_PATH, "org.bluez.Device1")
    device.Connect(timeout=10)
    char = c.interface(CHAR_PATH, "org.bluez.GattCharacteristic1")
    drops = c.stats()["unpaired_drops"]
    c.expect_no_error("a write command before pairing is accepted", lambda: char.WriteValue(b"x", {"type": "command"}))
    c.check("… and dropped by the device", c.stats()["unpaired_drops"] == drops + 1)
    c.expect_error("StartNotify before pairing", char.StartNotify, "org.bluez.Error.NotPermitted", "Not paired")
    device.Pair(timeout=10)
    c.check("paired and bonded", c.prop(DEVICE_PATH, "org.bluez.Device1", "Bonded"))
    c.check("Pair() does not set Trusted", not c.prop(DEVICE_PATH, "org.bluez.Device1", "Trusted"))
    device.Disconnect()
    c.check("bonded device keeps its GATT objects", CHAR_PATH in
            c.interface("/", "org.freedesktop.DBus.ObjectManager").GetManagedObjects())
    c.expect_error("WriteValue while disconnected", lambda: char.WriteValue(b"x", {}), "org.bluez.Error.Failed",
                   "Not connected")
    adapter = c.interface("/org/bluez/hci0", "org.bluez.Adapter1")
    adapter.RemoveDevice(DEVICE_PATH)
    c.expect_error("RemoveDevice of an unknown device", lambda: adapter.RemoveDevice(DEVICE_PATH),
                   "org.bluez.Error.DoesNotExist")
    c.signals = []
    adapter.StartDiscovery()
    c.pump(3, lambda: any(m == "InterfacesAdded" and str(a[0]) == DEVICE_PATH for m, _, a in c.signals))
    c.check("a removed device is found again, unpaired", any(m == "InterfacesAdded" and str(a[0]) == DEVICE_PATH
                                                             for m, _, a in c.signals)
            and not c.prop(DEVICE_PATH, "org.bluez.Device1", "Paired"))
    adapter.StopDiscovery()


class Agent(dbus.service.Object):
    """An org.bluez.Agent1 on the check's connection: answers RequestPasskey with `passkey` (None: never)."""

    def __init__(self, bus, passkey=None):
        super().__init__(bus, "/test/agent")
        self.passkey = passkey
        self.calls = []

    @dbus.service.method("org.bluez.Agent1", in_signature="o", out_signature="u", async_callbacks=("reply", "error"))
    def RequestPasskey(self, device, reply, error):
        self.calls.append(("RequestPasskey",))
        if self.passkey is not None:
            reply(dbus.UInt32(self.passkey))

    @dbus.service.method("org.bluez.Agent1", in_signature="ouq")
    def DisplayPasskey(self, device, passkey, entered):
        self.calls.append(("DisplayPasskey", int(passkey), int(entered)))

    @dbus.service.method("org.bluez.Agent1", in_signature="ou")
    def RequestConfirmation(self, device, passkey):
        self.calls.append(("RequestConfirmation", int(passkey)))

    @dbus.service.method("org.bluez.Agent1")
    def Cancel(self):
        self.calls.append(("Cancel",))


def pair_async(c, seconds=3):
    """Calls Pair() without blocking (the agent on this connection must answer meanwhile); returns the error name
    or None."""
    outcome = []
    c.interface(DEVICE_PATH, "org.bluez.Device1").Pair(
        reply_handler=lambda: outcome.append(None), error_handler=lambda e: outcome.append(e.get_dbus_name()), timeout=30)
    c.pump(seconds, lambda: outcome)
    return outcome[0] if outcome else "no answer"


def agent_pairing(c, io_capability):
    """--security authenticate --passkey 654321 --pairing-timeout 0.5, the device's IO capability given."""
    manager = c.interface("/org/bluez", "org.bluez.AgentManager1")
    agent = Agent(c.bus)
    if io_capability == "DisplayOnly":
        manager.RegisterAgent("/test/agent", "DisplayOnly")
        c.check("Just Works (DisplayOnly both ways) fails on an authenticated characteristic",
                pair_async(c) == "org.bluez.Error.AuthenticationFailed")
        manager.UnregisterAgent("/test/agent")
        manager.RegisterAgent("/test/agent", "KeyboardDisplay")
        agent.passkey = 111111
        c.check("a wrong passkey fails with AuthenticationFailed", pair_async(c) == "org.bluez.Error.AuthenticationFailed")
        agent.passkey = None
        c.check("an agent that does not answer: AuthenticationTimeout", pair_async(c) == "org.bluez.Error.AuthenticationTimeout")
        c.check("… after Cancel()", agent.calls[-1] == ("Cancel",), agent.calls)
        agent.passkey = 654321
        c.check("the passkey the device displays pairs", pair_async(c) is None)
    elif io_capability == "KeyboardOnly":
        manager.RegisterAgent("/test/agent", "KeyboardDisplay")
        c.check("a keyboard device pairs while the agent displays the passkey", pair_async(c) is None)
        displayed = [call for call in agent.calls if call[0] == "DisplayPasskey"]
        c.check("DisplayPasskey is called for each key typed", [call[2] for call in displayed] == list(range(7))
                and all(call[1] == 654321 for call in displayed), displayed)
    else:
        c.expect_error("without an agent Pair() is Just Works, refused by an authenticated characteristic",
                       lambda: c.interface(DEVICE_PATH, "org.bluez.Device1").Pair(timeout=10),
                       "org.bluez.Error.AuthenticationFailed")
        other = dbus.bus.BusConnection(c.address)
        default = Agent(other)
        other_manager = dbus.Interface(other.get_object("org.bluez", "/org/bluez"), "org.bluez.AgentManager1")
        other_manager.RegisterAgent("/test/agent", "")
        other_manager.RequestDefaultAgent("/test/agent")
        c.check("numeric comparison pairs when the default agent (another connection's) confirms", pair_async(c) is None)
        c.check("… RequestConfirmation with the device's number, to the default agent",
                ("RequestConfirmation", 654321) in default.calls and not agent.calls, (default.calls, agent.calls))
        default.remove_from_connection()
        other.close()
    c.check("paired, not trusted", c.prop(DEVICE_PATH, "org.bluez.Device1", "Paired")
            and not c.prop(DEVICE_PATH, "org.bluez.Device1", "Trusted"))
    c.expect_error("Pair() again", lambda: c.interface(DEVICE_PATH, "org.bluez.Device1").Pair(timeout=10),
                   "org.bluez.Error.AlreadyExists")
    agent.remove_from_connection()


def adapter_options(c):
    """--powered 0, two devices without the UUID in their advertising, --no-acquire, --no-mtu-property."""
    adapter = c.interface("/org/bluez/hci0", "org.bluez.Adapter1")
    properties = c.interface("/org/bluez/hci0", "org.freedesktop.DBus.Properties")
    c.expect_error("StartDiscovery while powered off", adapter.StartDiscovery, "org.bluez.Error.NotReady")
    c.expect_error("Set with a wrong type", lambda: properties.Set("org.bluez.Adapter1", "Powered", "yes"),
                   "org.freedesktop.DBus.Error.InvalidArgs")
    c.expect_error("Set a read-only property", lambda: properties.Set("org.bluez.Adapter1", "Name", "x"),
                   "org.freedesktop.DBus.Error.PropertyReadOnly")
    properties.Set("org.bluez.Adapter1", "Powered", dbus.Boolean(True))
    adapter.SetDiscoveryFilter({"UUIDs": dbus.Array([SMP_SERVICE_UUID], signature="s")})
    adapter.StartDiscovery()
    c.pump(0.8)
    added = [str(a[0]) for m, _, a in c.signals if m == "InterfacesAdded"]
    c.check("UUID filter hides devices that don't advertise it", added == [], added)
    adapter.StopDiscovery()
    adapter.SetDiscoveryFilter({"Pattern": "Two"})
    adapter.StartDiscovery()
    two = "/org/bluez/hci0/dev_AA_00_00_00_00_02"
    c.pump(2, lambda: any(m == "InterfacesAdded" for m, _, a in c.signals))
    added = [str(a[0]) for m, _, a in c.signals if m == "InterfacesAdded"]
    c.check("Pattern filter finds only the named device", added == [two], added)
    c.check("public address type", c.prop(two, "org.bluez.Device1", "AddressType") == "public")
    adapter.StopDiscovery()
    c.interface(two, "org.bluez.Device1").Connect(timeout=10)
    char_path = two + "/service000a/char000b"
    props = c.interface(char_path, "org.freedesktop.DBus.Properties").GetAll("org.bluez.GattCharacteristic1")
    c.check("no MTU/WriteAcquired/NotifyAcquired", not {"MTU", "WriteAcquired", "NotifyAcquired"} & set(props), props.keys())
    char = c.interface(char_path, "org.bluez.GattCharacteristic1")
    c.expect_error("AcquireWrite without Acquire support", lambda: char.AcquireWrite({}), "org.bluez.Error.NotSupported")
    char.StartNotify()
    char.WriteValue(dbus.ByteArray(echo_request("silent", 1)), {})
    c.pump(0.3)
    c.check("a device without a port swallows requests", c.stats()["requests_unanswered"] == 1)
    c.control().Notify(dbus.ByteArray(b"\x01\x02"))
    c.pump(1, lambda: c.notifications() == b"\x01\x02")
    c.check("Notify hook", c.notifications() == b"\x01\x02", c.notifications())
    other = dbus.bus.BusConnection(c.address)
    dbus.Interface(other.get_object("org.bluez", "/org/bluez/hci0"), "org.bluez.Adapter1").StartDiscovery()
    other.close()
    c.pump(1, lambda: not c.prop("/org/bluez/hci0", "org.bluez.Adapter1", "Discovering"))
    c.check("discovery ends when its client leaves the bus",
            not c.prop("/org/bluez/hci0", "org.bluez.Adapter1", "Discovering"))
    properties.Set("org.bluez.Adapter1", "Powered", dbus.Boolean(False))
    c.check("power off disconnects", not c.prop(two, "org.bluez.Device1", "Connected"))


def paced_reset_to_new_address(c):
    """--mtu 23, pacing, a reset that brings the device back under a new address."""
    adapter = c.interface("/org/bluez/hci0", "org.bluez.Adapter1")
    device = c.interface(DEVICE_PATH, "org.bluez.Device1")
    device.Connect(timeout=10)
    char = c.interface(CHAR_PATH, "org.bluez.GattCharacteristic1")
    char.StartNotify()
    c.signals = []
    request = echo_request("paced " * 20, 3)
    started = time.monotonic()
    for start in range(0, len(request), 20):
        char.WriteValue(dbus.ByteArray(request[start:start + 20]), {})
    complete = lambda: len(c.notifications()) >= 8 and len(c.notifications()) >= 8 + int.from_bytes(c.notifications()[2:4], "big")
    c.pump(5, complete)
    elapsed = time.monotonic() - started
    chunks = -(-len(request) // 20) + -(-len(c.notifications()) // 20)
    c.check("pacing: one packet per 20 ms interval each way", complete() and elapsed >= 0.02 * chunks * 0.9,
            "%d packets in %.3f s" % (chunks, elapsed))
    c.control().SetMTU(dbus.UInt16(64))
    c.pump(0.05)
    c.check("SetMTU changes the MTU property", int(c.prop(CHAR_PATH, "org.bluez.GattCharacteristic1", "MTU")) == 64)
    char.WriteValue(dbus.ByteArray(smp_request(2, 0, 5, 4, b"\xa0")), {})
    c.pump(3, lambda: not c.prop(DEVICE_PATH, "org.bluez.Device1", "Connected"))
    c.check("reset drops the link", not c.prop(DEVICE_PATH, "org.bluez.Device1", "Connected"))
    c.signals = []
    adapter.StartDiscovery()
    new_path = "/org/bluez/hci0/dev_C0_FF_EE_00_00_02"
    c.pump(3, lambda: any(m == "InterfacesAdded" and str(a[0]) == new_path for m, _, a in c.signals))
    c.check("device comes back under the new address", any(str(a[0]) == new_path for m, _, a in c.signals
                                                           if m == "InterfacesAdded"))
    c.check("same name", c.prop(new_path, "org.bluez.Device1", "Name") == "Zephyr")
    adapter.StopDiscovery()
    c.interface(new_path, "org.bluez.Device1").Connect(timeout=10)
    c.check("the new address connects", c.prop(new_path, "org.bluez.Device1", "ServicesResolved"))


DFU_CHAR = "8ec9000%d-f315-4f60-9fb8-838830daea50"


def secure_buttonless_to_bootloader(c):
    """A buttonless application (Secure, without bonds) renamed, rebooted to address + 1, then its bootloader."""
    app_path = "/org/bluez/hci0/dev_C0_FF_EE_00_00_05"
    adapter = c.interface("/org/bluez/hci0", "org.bluez.Adapter1")
    adapter.StartDiscovery()
    c.pump(3, lambda: any(m == "InterfacesAdded" and str(a[0]) == app_path for m, _, a in c.signals))
    c.check("DFU application advertises no DFU service", list(c.prop(app_path, "org.bluez.Device1", "UUIDs")) == [])
    adapter.StopDiscovery()
    c.interface(app_path, "org.bluez.Device1").Connect(timeout=10)
    char_path = app_path + "/service000a/char000b"
    props = c.interface(char_path, "org.freedesktop.DBus.Properties").GetAll("org.bluez.GattCharacteristic1")
    c.check("buttonless characteristic: UUID and flags", str(props["UUID"]) == DFU_CHAR % 3
            and list(props["Flags"]) == ["write", "indicate"] and "NotifyAcquired" not in props, props)
    c.check("FE59 service", str(c.prop(app_path + "/service000a", "org.bluez.GattService1", "UUID")).startswith("0000fe59"))
    char = c.interface(char_path, "org.bluez.GattCharacteristic1")
    c.expect_error("AcquireNotify on an indicating characteristic", lambda: char.AcquireNotify({}),
                   "org.bluez.Error.NotSupported")
    c.expect_error("buttonless write before indications", lambda: char.WriteValue(b"\x01", {}),
                   "org.bluez.Error.Failed", "Operation failed with ATT error: 0xfd")
    char.StartNotify()
    c.signals = []
    char.WriteValue(dbus.ByteArray(b"\x02\x05MyDfu"), {})
    c.pump(3, lambda: len(c.notifications()) >= 3)
    c.check("set name answered", c.notifications() == b"\x20\x02\x01", c.notifications())
    c.signals = []
    char.WriteValue(dbus.ByteArray(b"\x01"), {"type": "request"})
    c.pump(3, lambda: not c.prop(app_path, "org.bluez.Device1", "Connected"))
    c.check("enter answered, then the link drops", c.notifications() == b"\x20\x01\x01"
            and not c.prop(app_path, "org.bluez.Device1", "Connected"), c.notifications())
    boot_path = "/org/bluez/hci0/dev_C0_FF_EE_00_00_06"
    adapter.StartDiscovery()
    c.pump(3, lambda: any(m == "InterfacesAdded" and str(a[0]) == boot_path for m, _, a in c.signals))
    adapter.StopDiscovery()
    c.check("bootloader at address + 1 under the name set", c.prop(boot_path, "org.bluez.Device1", "Name") == "MyDfu"
            and list(c.prop(boot_path, "org.bluez.Device1", "UUIDs")) == ["0000fe59-0000-1000-8000-00805f9b34fb"])
    c.interface(boot_path, "org.bluez.Device1").Connect(timeout=10)
    control = c.interface(boot_path + "/service000a/char000b", "org.bluez.GattCharacteristic1")
    data_path = boot_path + "/service000a/char000e"
    data = c.interface(data_path, "org.bluez.GattCharacteristic1")
    c.check("Secure DFU characteristics", str(c.prop(boot_path + "/service000a/char000b", "org.bluez.GattCharacteristic1",
                                                     "UUID")) == DFU_CHAR % 1
            and list(c.prop(data_path, "org.bluez.GattCharacteristic1", "Flags")) == ["write-without-response"])
    control.StartNotify()
    c.signals = []
    control.WriteValue(dbus.ByteArray(b"\x01\x01\x04\x00\x00\x00"), {"type": "request"})
    data.WriteValue(dbus.ByteArray(b"init"), {"type": "command"})
    control.WriteValue(dbus.ByteArray(b"\x03"), {})
    c.pump(3, lambda: len(c.notifications()) >= 3 + 11)
    c.check("create, data write, CRC answered", c.notifications()[:3] == b"\x60\x01\x01"
            and c.notifications()[3:10] == b"\x60\x03\x01\x04\x00\x00\x00", c.notifications().hex())
    c.expect_error("oversize data write", lambda: data.WriteValue(b"\0" * 245, {"type": "command"}),
                   "org.bluez.Error.Failed", "Failed to initiate write")
    c.expect_error("request write on Data", lambda: data.WriteValue(b"x", {"type": "request"}),
                   "org.bluez.Error.NotSupported")
    stats = c.stats()
    c.check("writes counted per characteristic", stats.get("writes:" + data_path) == 1 and stats["dfu_commands"] >= 5, stats)


def legacy_bootloader(c):
    path = "/org/bluez/hci0/dev_C0_FF_EE_00_00_07"
    adapter = c.interface("/org/bluez/hci0", "org.bluez.Adapter1")
    adapter.StartDiscovery()
    c.pump(3, lambda: any(m == "InterfacesAdded" and str(a[0]) == path for m, _, a in c.signals))
    adapter.StopDiscovery()
    c.interface(path, "org.bluez.Device1").Connect(timeout=10)
    version = c.interface(path + "/service000a/char0010", "org.bluez.GattCharacteristic1")
    c.check("legacy DFU Version reads 0.8", bytes(version.ReadValue({})) == b"\x08\x00")
    control = c.interface(path + "/service000a/char000b", "org.bluez.GattCharacteristic1")
    packet = c.interface(path + "/service000a/char000e", "org.bluez.GattCharacteristic1")
    control.StartNotify()
    c.signals = []
    control.WriteValue(dbus.ByteArray(b"\x01\x04"), {})
    packet.WriteValue(dbus.ByteArray(bytes(8) + (1024).to_bytes(4, "little")), {"type": "command"})
    c.pump(3, lambda: len(c.notifications()) >= 3)
    c.check("legacy Start answered", c.notifications() == b"\x10\x01\x01", c.notifications())
    c.signals = []
    control.WriteValue(dbus.ByteArray(b"\x06"), {})
    c.pump(3, lambda: not c.prop(path, "org.bluez.Device1", "Connected"))
    c.check("legacy Reset drops the link", not c.prop(path, "org.bluez.Device1", "Connected"))


def main(argv):
    smpctl = argv[0] if argv else os.path.join(ROOT, ".build", "debug", "smpctl")
    c = Check()
    c.start(smpctl)
    try:
        c.start_mock()
        discovery_and_connect(c)
        write_value_path(c)
        notify, write = acquired_path(c)
        link_loss(c, notify, write)
        reset_drops_link(c)
        c.stop_mock()
        c.start_mock("--cached", "--require-pairing", "--interval-ms", "10", "--packets-per-interval", "2")
        pairing(c)
        c.stop_mock()
        for io_capability in ("DisplayOnly", "KeyboardOnly", "DisplayYesNo"):
            c.start_mock("--cached", "--security", "authenticate", "--passkey", "654321", "--pairing-timeout", "0.5",
                         "--io-capability", io_capability)
            agent_pairing(c, io_capability)
            c.stop_mock()
        c.start_mock("--no-adapter")
        objects = c.interface("/", "org.freedesktop.DBus.ObjectManager").GetManagedObjects()
        c.check("--no-adapter exports no Adapter1", not any("org.bluez.Adapter1" in i for i in objects.values()))
        c.stop_mock()
        c.start_mock("--powered", "0", "--no-uuid-adv", "--no-acquire", "--no-mtu-property",
                     "--device", "AA:00:00:00:00:01,One,%d" % c.port, "--device", "AA:00:00:00:00:02,Two")
        adapter_options(c)
        c.stop_mock()
        c.start_mock("--cached", "--mtu", "23", "--interval-ms", "20", "--packets-per-interval", "1",
                     "--reboot-time", "0.3", "--new-address-after-reset", "C0:FF:EE:00:00:02")
        paced_reset_to_new_address(c)
        c.stop_mock()
        secure_port = c.start_dfu_device(smpctl, "--dfu-buttonless", "secure")
        legacy_port = c.start_dfu_device(smpctl, "--dfu-legacy")
        c.start_mock("--reboot-time", "0.3", "--dfu-device", "C0:FF:EE:00:00:05,Sensor,%d,buttonless-secure" % secure_port,
                     "--dfu-device", "C0:FF:EE:00:00:07,DfuTarg,%d,legacy" % legacy_port)
        secure_buttonless_to_bootloader(c)
        legacy_bootloader(c)
        c.stop_mock()
    finally:
        c.stop()
    print("%d passed, %d failed" % (c.passed, c.failed))
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
