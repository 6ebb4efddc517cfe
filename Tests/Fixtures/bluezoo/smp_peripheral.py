#!/usr/bin/python3
"""A Zephyr-like SMP peripheral for BlueZoo: a BlueZ GATT server application and LE advertisement.

BlueZoo (https://github.com/Samsung/BlueZoo, GPL-2.0-only) mocks bluetoothd's org.bluez D-Bus API with virtual
adapters; the tests run it as a separate program and never link or ship it. This application registers, on the
peripheral adapter, the SMP service of Zephyr's subsys/mgmt/mcumgr/transport/src/smp_bt.c (characteristic flags
write-without-response and notify) with GattManager1.RegisterApplication, and advertises it with
LEAdvertisingManager1.RegisterAdvertisement, so that a client on the other adapter finds, connects and talks to it.

Each SMP message the client writes (fragments reassembled by the length in the SMP header, as smp_bt.c does) goes
over UDP to an SMP server (`smpctl simulate --udp PORT` or a test's virtual device); each answer comes back as
notifications of at most MTU - 3 bytes. After the answer to an OS reset the device reboots like a real one: the
link drops and the advertisement stops for --reboot-time seconds.

Run it with /usr/bin/python3 (Debian's python3-dbus and python3-gi) and DBUS_SYSTEM_BUS_ADDRESS set to the private
bus BlueZoo serves; it prints READY once the application and the advertisement are registered.
docs/ble-testing.md ("Testing against BlueZoo") describes it.
"""

import argparse
import os
import socket
import sys

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

SMP_SERVICE_UUID = "8d53dc1d-1db7-4cd3-868b-8a527460aa84"
SMP_CHARACTERISTIC_UUID = "da2e7828-fbce-4e01-ae9e-261174997c48"
# smp_bt.c: BT_GATT_CHRC_WRITE_WITHOUT_RESP | BT_GATT_CHRC_NOTIFY.
SMP_CHARACTERISTIC_FLAGS = ["write-without-response", "notify"]
SMP_HEADER_SIZE = 8
ATT_NOTIFICATION_OVERHEAD = 3
LINK_DROP_AFTER_RESET_MS = 300

PROPERTIES = "org.freedesktop.DBus.Properties"
OBJECT_MANAGER = "org.freedesktop.DBus.ObjectManager"
SERVICE = "org.bluez.GattService1"
CHARACTERISTIC = "org.bluez.GattCharacteristic1"
ADVERTISEMENT = "org.bluez.LEAdvertisement1"
APPLICATION_PATH = "/org/smpctl/peripheral"


def log(message):
    print("smp_peripheral: " + message, file=sys.stderr, flush=True)


class NotSupported(dbus.DBusException):
    _dbus_error_name = "org.bluez.Error.NotSupported"


class PropertyObject(dbus.service.Object):
    """An exported object with one interface whose properties `properties()` returns."""

    interface = None

    def properties(self):
        raise NotImplementedError

    @dbus.service.method(PROPERTIES, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        return self.properties() if interface == self.interface else {}

    @dbus.service.method(PROPERTIES, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        return self.GetAll(interface)[name]

    @dbus.service.signal(PROPERTIES, signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass


class Service(PropertyObject):
    interface = SERVICE

    def __init__(self, bus, path):
        super().__init__(bus, path)
        self.path = path

    def properties(self):
        return {"UUID": SMP_SERVICE_UUID, "Primary": dbus.Boolean(True), "Includes": dbus.Array([], signature="o")}


class SMPCharacteristic(PropertyObject):
    """The SMP characteristic: reassembles written fragments into SMP messages, notifies answers."""

    interface = CHARACTERISTIC

    def __init__(self, bus, path, service, peripheral):
        super().__init__(bus, path)
        self.path = path
        self.service = service
        self.peripheral = peripheral
        self.notifying = False
        self.received = bytearray()
        self.write_socket = None
        self.notify_socket = None

    def properties(self):
        properties = {
            "UUID": SMP_CHARACTERISTIC_UUID, "Service": dbus.ObjectPath(self.service.path),
            "Flags": dbus.Array(SMP_CHARACTERISTIC_FLAGS, signature="s"), "Notifying": dbus.Boolean(self.notifying),
            "MTU": dbus.UInt16(self.peripheral.mtu), "Value": dbus.Array([], signature="y"),
        }
        if self.peripheral.args.acquire:
            properties["WriteAcquired"] = dbus.Boolean(self.write_socket is not None)
            properties["NotifyAcquired"] = dbus.Boolean(self.notify_socket is not None)
        return properties

    def received_fragment(self, fragment):
        """Like smp_bt.c: fragments add up until the header's length is complete; each message goes on."""
        self.received += fragment
        while len(self.received) >= SMP_HEADER_SIZE:
            size = SMP_HEADER_SIZE + int.from_bytes(self.received[2:4], "big")
            if len(self.received) < size:
                break
            message, self.received = bytes(self.received[:size]), self.received[size:]
            self.peripheral.send_to_server(message)

    def notify(self, message):
        """Sends `message` as notifications of at most MTU - 3 bytes each."""
        size = self.peripheral.mtu - ATT_NOTIFICATION_OVERHEAD
        for start in range(0, len(message), size):
            fragment = message[start:start + size]
            if self.notify_socket is not None:
                self.notify_socket.send(fragment)
            elif self.notifying:
                self.PropertiesChanged(CHARACTERISTIC, {"Value": dbus.Array(fragment, signature="y")}, [])

    @dbus.service.method(CHARACTERISTIC, in_signature="aya{sv}")
    def WriteValue(self, value, _options):
        self.received_fragment(bytes(value))

    @dbus.service.method(CHARACTERISTIC, in_signature="a{sv}", out_signature="hq")
    def AcquireWrite(self, _options):
        self.require_acquire()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.close_write_socket()
        self.write_socket = ours
        GLib.io_add_watch(ours.fileno(), GLib.IO_IN | GLib.IO_HUP | GLib.IO_ERR, self._written, ours)
        return self._hand_over(theirs), dbus.UInt16(self.peripheral.mtu)

    @dbus.service.method(CHARACTERISTIC, in_signature="a{sv}", out_signature="hq")
    def AcquireNotify(self, _options):
        self.require_acquire()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.close_notify_socket()
        self.notify_socket = ours
        GLib.io_add_watch(ours.fileno(), GLib.IO_HUP | GLib.IO_ERR, self._notify_socket_closed, ours)
        return self._hand_over(theirs), dbus.UInt16(self.peripheral.mtu)

    def require_acquire(self):
        if not self.peripheral.args.acquire:
            raise NotSupported("Operation is not supported")

    @staticmethod
    def _hand_over(theirs):
        descriptor = dbus.types.UnixFd(theirs.fileno())  # a duplicate travels with the reply
        theirs.close()
        return descriptor

    def _written(self, _fd, condition, sock):
        if sock is not self.write_socket:
            return False
        if condition & GLib.IO_IN:
            try:
                fragment = sock.recv(65536)
            except OSError:
                fragment = b""
            if fragment:
                self.received_fragment(fragment)
                return True
        self.close_write_socket()
        return False

    def _notify_socket_closed(self, _fd, _condition, sock):
        if sock is self.notify_socket:
            self.close_notify_socket()
        return False

    @dbus.service.method(CHARACTERISTIC)
    def StartNotify(self):
        self.set_notifying(True)

    @dbus.service.method(CHARACTERISTIC)
    def StopNotify(self):
        self.set_notifying(False)

    @dbus.service.method(CHARACTERISTIC)
    def Confirm(self):
        """BlueZoo confirms every value it relays, notifications included; nothing to do."""

    @dbus.service.method(CHARACTERISTIC, in_signature="a{sv}", out_signature="ay")
    def ReadValue(self, _options):
        raise NotSupported("Operation is not supported")

    def set_notifying(self, notifying):
        if self.notifying != notifying:
            self.notifying = notifying
            self.PropertiesChanged(CHARACTERISTIC, {"Notifying": dbus.Boolean(notifying)}, [])

    def close_write_socket(self):
        if self.write_socket is not None:
            self.write_socket.close()
            self.write_socket = None

    def close_notify_socket(self):
        if self.notify_socket is not None:
            self.notify_socket.close()
            self.notify_socket = None

    def link_lost(self):
        """What a dropped link does to the characteristic: sockets closed, notifications off, nothing half-read."""
        self.close_write_socket()
        self.close_notify_socket()
        self.set_notifying(False)
        self.received = bytearray()


class Application(dbus.service.Object):
    def __init__(self, bus, objects):
        super().__init__(bus, APPLICATION_PATH)
        self.objects = objects

    @dbus.service.method(OBJECT_MANAGER, out_signature="a{oa{sa{sv}}}")
    def GetManagedObjects(self):
        return {obj.path: {obj.interface: obj.properties()} for obj in self.objects}


class Advertisement(PropertyObject):
    interface = ADVERTISEMENT

    def __init__(self, bus, path, name):
        super().__init__(bus, path)
        self.path = path
        self.name = name

    def properties(self):
        return {
            "Type": "peripheral", "ServiceUUIDs": dbus.Array([SMP_SERVICE_UUID], signature="s"),
            "LocalName": self.name, "Discoverable": dbus.Boolean(True),
        }

    @dbus.service.method(ADVERTISEMENT)
    def Release(self):
        log("the advertisement was released")


class Peripheral:
    def __init__(self, bus, args, address):
        self.bus = bus
        self.args = args
        self.address = address
        self.mtu = args.mtu
        self.adapter_path = "/org/bluez/" + args.adapter
        self.service = Service(bus, APPLICATION_PATH + "/service0")
        self.characteristic = SMPCharacteristic(bus, APPLICATION_PATH + "/service0/char0", self.service, self)
        self.application = Application(bus, [self.service, self.characteristic])
        self.advertisement = Advertisement(bus, APPLICATION_PATH + "/advertisement0", args.name)
        self.advertising = False
        self.pending_resets = set()
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.connect(("127.0.0.1", args.udp_port))
        self.udp.setblocking(False)
        GLib.io_add_watch(self.udp.fileno(), GLib.IO_IN, self._answer_arrived)

    def interface(self, path, name):
        return dbus.Interface(self.bus.get_object("org.bluez", path), name)

    def register(self, done, failed):
        """Registers the application, then the advertisement; calls `done()` or `failed(error)`.

        The calls are asynchronous: BlueZoo reads the application's objects while RegisterApplication runs."""
        self.interface(self.adapter_path, "org.bluez.GattManager1").RegisterApplication(
            dbus.ObjectPath(APPLICATION_PATH), dbus.Dictionary({}, signature="sv"),
            reply_handler=lambda: self.start_advertising(done, failed), error_handler=failed)

    def start_advertising(self, done=None, failed=None):
        def advertising():
            self.advertising = True
            if done:
                done()

        self.interface(self.adapter_path, "org.bluez.LEAdvertisingManager1").RegisterAdvertisement(
            dbus.ObjectPath(self.advertisement.path), dbus.Dictionary({}, signature="sv"),
            reply_handler=advertising, error_handler=failed or (lambda error: log("advertising again failed: %s" % error)))
        return False

    def stop_advertising(self):
        if self.advertising:
            self.advertising = False
            self.interface(self.adapter_path, "org.bluez.LEAdvertisingManager1").UnregisterAdvertisement(
                dbus.ObjectPath(self.advertisement.path), reply_handler=lambda: None,
                error_handler=lambda error: log("stopping the advertisement failed: %s" % error))

    def send_to_server(self, message):
        op, group, seq, command = message[0] & 0x07, int.from_bytes(message[4:6], "big"), message[6], message[7]
        if op == 2 and group == 0 and command == 5:
            self.pending_resets.add(seq)
        try:
            self.udp.send(message)
        except OSError as failure:
            log("sending to the SMP server on UDP port %d failed: %s" % (self.args.udp_port, failure))

    def _answer_arrived(self, _fd, _condition):
        while True:
            try:
                answer = self.udp.recv(65536)
            except BlockingIOError:
                return True
            except OSError as failure:  # ECONNREFUSED: nothing listens on the port (yet)
                log("the SMP server on UDP port %d: %s" % (self.args.udp_port, failure))
                continue
            self.characteristic.notify(answer)
            if self._is_reset_done(answer):
                GLib.timeout_add(LINK_DROP_AFTER_RESET_MS, self._reboot)

    def _is_reset_done(self, answer):
        """An OS reset answer (op 3, group 0, command 5) to a pending request, without an error code."""
        if len(answer) < SMP_HEADER_SIZE or answer[0] & 0x07 != 3 or answer[4:6] != b"\x00\x00" or answer[7] != 5:
            return False
        if answer[6] not in self.pending_resets:
            return False
        self.pending_resets.discard(answer[6])
        body = answer[SMP_HEADER_SIZE:]
        return (b"\x62rc" not in body or b"\x62rc\x00" in body) and b"\x63err" not in body

    def _reboot(self):
        """The device resets: its link drops and it does not advertise until it has booted."""
        log("reset: dropping the link, advertising again in %.1f s" % self.args.reboot_time)
        self.stop_advertising()
        self._disconnect_centrals(self.characteristic.link_lost)
        GLib.timeout_add(int(self.args.reboot_time * 1000), self.start_advertising)
        return False

    def _disconnect_centrals(self, then):
        """BlueZoo has no peripheral-side disconnect, so the link is dropped through each central's own Device1:
        to the client that looks like a supervision timeout (Connected turns false). `then()` runs once the
        centrals are disconnected (the client sees its sockets hang up after Connected turned false, as with
        bluetoothd)."""
        def disconnect(objects):
            centrals = [path for path, interfaces in objects.items()
                        if str(interfaces.get("org.bluez.Device1", {}).get("Address")) == self.address
                        and bool(interfaces["org.bluez.Device1"].get("Connected"))]
            pending = set(centrals)

            def disconnected(path):
                pending.discard(path)
                if not pending:
                    then()

            for path in centrals:
                self.interface(path, "org.bluez.Device1").Disconnect(
                    reply_handler=lambda path=path: disconnected(path),
                    error_handler=lambda error, path=path: log("Disconnect failed: %s" % error) or disconnected(path))
            if not centrals:
                then()

        self.interface("/", OBJECT_MANAGER).GetManagedObjects(
            reply_handler=disconnect, error_handler=lambda error: log("GetManagedObjects failed: %s" % error) or then())


def wait_for_adapter(bus, path, seconds):
    """The address of adapter `path` once BlueZoo serves it; None when it does not within `seconds`."""
    deadline = GLib.get_monotonic_time() + int(seconds * 1e6)
    while GLib.get_monotonic_time() < deadline:
        try:
            adapter = bus.get_object("org.bluez", path)
            return str(adapter.Get("org.bluez.Adapter1", "Address", dbus_interface=PROPERTIES))
        except dbus.DBusException:
            GLib.usleep(50_000)
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--udp-port", type=int, required=True, help="the SMP server's UDP port on 127.0.0.1")
    parser.add_argument("--adapter", default="hci1", help="the adapter that serves and advertises (default hci1)")
    parser.add_argument("--name", default="Zephyr", help="the advertised local name (default Zephyr)")
    parser.add_argument("--mtu", type=int, default=247, help="the ATT MTU (default 247)")
    parser.add_argument("--acquire", action=argparse.BooleanOptionalAction, default=True,
                        help="offer AcquireWrite/AcquireNotify sockets (default on); --no-acquire: WriteValue and "
                             "StartNotify only")
    parser.add_argument("--reboot-time", type=float, default=1.0, help="seconds a reset device doesn't advertise")
    args = parser.parse_args()
    if not os.environ.get("DBUS_SYSTEM_BUS_ADDRESS"):
        sys.exit("smp_peripheral: set DBUS_SYSTEM_BUS_ADDRESS to the private bus that BlueZoo serves")
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SystemBus()
    address = wait_for_adapter(bus, "/org/bluez/" + args.adapter, 10)
    if address is None:
        sys.exit("smp_peripheral: no adapter %s on org.bluez within 10 s (is bluezoo running with two adapters?)" % args.adapter)
    peripheral = Peripheral(bus, args, address)
    loop = GLib.MainLoop()

    def failed(error):
        log("registering with %s failed: %s" % (peripheral.adapter_path, error))
        loop.quit()

    peripheral.register(lambda: print("READY", flush=True), failed)
    loop.run()
    sys.exit(1)


if __name__ == "__main__":
    main()
