#!/usr/bin/python3
"""A mock of bluetoothd 5.66's org.bluez D-Bus API on a private bus, bridged to virtual SMP devices over UDP.

Run it with /usr/bin/python3 (Debian's python3-dbus and python3-gi) and DBUS_SYSTEM_BUS_ADDRESS set to a
private bus (Tests/Fixtures/bluez/private-system-bus.conf); it refuses to run without that variable so that it
can never claim the real system bus. It prints READY once it owns org.bluez. docs/ble-testing.md describes the
object tree, the options, the Control1 test hooks and the places where it knowingly differs from bluetoothd.
"""

import argparse
import collections
import os
import select
import signal
import socket
import sys

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

SMP_SERVICE_UUID = "8d53dc1d-1db7-4cd3-868b-8a527460aa84"
SMP_CHARACTERISTIC_UUID = "da2e7828-fbce-4e01-ae9e-261174997c48"
CCCD_UUID = "00002902-0000-1000-8000-00805f9b34fb"
GAP_UUID = "00001800-0000-1000-8000-00805f9b34fb"
GATT_UUID = "00001801-0000-1000-8000-00805f9b34fb"
# Nordic DFU (nRF5 SDK): the Secure DFU service and its buttonless characteristics, and the legacy DFU service.
SECURE_DFU_SERVICE_UUID = "0000fe59-0000-1000-8000-00805f9b34fb"
SECURE_DFU_CONTROL_POINT_UUID = "8ec90001-f315-4f60-9fb8-838830daea50"
SECURE_DFU_DATA_UUID = "8ec90002-f315-4f60-9fb8-838830daea50"
BUTTONLESS_DFU_UUID = "8ec90003-f315-4f60-9fb8-838830daea50"
BUTTONLESS_DFU_BONDED_UUID = "8ec90004-f315-4f60-9fb8-838830daea50"
LEGACY_DFU_SERVICE_UUID = "00001530-1212-efde-1523-785feabcd123"
LEGACY_DFU_CONTROL_POINT_UUID = "00001531-1212-efde-1523-785feabcd123"
LEGACY_DFU_PACKET_UUID = "00001532-1212-efde-1523-785feabcd123"
LEGACY_DFU_VERSION_UUID = "00001534-1212-efde-1523-785feabcd123"
DFU_KINDS = ("secure", "legacy", "buttonless-secure", "buttonless-secure-bonded", "buttonless-legacy")
# The Nordic DFU bridge's datagram tags (docs/ble-testing.md): mock → server, server → mock.
BRIDGE_CONTROL_POINT_WRITE, BRIDGE_DATA_WRITE, BRIDGE_CONNECTED, BRIDGE_DISCONNECTED = 0x01, 0x02, 0x03, 0x04
BRIDGE_NOTIFY, BRIDGE_RESET, BRIDGE_REBOOT_INTO_BOOTLOADER = 0x11, 0x12, 0x13
BRIDGE_BOOTLOADER_KINDS = {1: "secure", 2: "legacy"}

PROPERTIES = "org.freedesktop.DBus.Properties"
OBJECT_MANAGER = "org.freedesktop.DBus.ObjectManager"
AGENT_MANAGER = "org.bluez.AgentManager1"
ADAPTER = "org.bluez.Adapter1"
DEVICE = "org.bluez.Device1"
SERVICE = "org.bluez.GattService1"
CHARACTERISTIC = "org.bluez.GattCharacteristic1"
DESCRIPTOR = "org.bluez.GattDescriptor1"
CONTROL = "org.bluez.mock.Control1"
CONTROL_PATH = "/org/bluez/mock"

# Standard messages of bluetoothd 5.66's src/error.c, by error name suffix.
ERROR_MESSAGES = {
    "InvalidArguments": "Invalid arguments in method call",
    "InProgress": "In Progress",
    "AlreadyExists": "Already Exists",
    "NotSupported": "Operation is not supported",
    "NotConnected": "Not Connected",
    "AlreadyConnected": "Already Connected",
    "NotAvailable": "Operation currently not available",
    "DoesNotExist": "Does Not Exist",
    "NotAuthorized": "Operation Not Authorized",
    "NoSuchAdapter": "No such adapter",
    "AgentNotAvailable": "Agent Not Available",
    "NotReady": "Resource Not Ready",
}
AGENT_CAPABILITIES = {"", "DisplayOnly", "DisplayYesNo", "KeyboardOnly", "NoInputNoOutput", "KeyboardDisplay"}
AGENT = "org.bluez.Agent1"
IO_CAPABILITIES = ("DisplayOnly", "DisplayYesNo", "KeyboardOnly", "NoInputNoOutput", "KeyboardDisplay")
# The LE Secure Connections pairing method (Core spec Vol 3 Part H, 2.3.5.1) by the device's IO capability, then the
# local agent's: "entry" (the agent is asked for the passkey the device displays: RequestPasskey), "display" (the agent
# shows a passkey the device types: DisplayPasskey), "comparison" (RequestConfirmation), else Just Works.
PAIRING_METHODS = {
    "DisplayOnly": {"KeyboardOnly": "entry", "KeyboardDisplay": "entry"},
    "KeyboardOnly": {"DisplayOnly": "display", "DisplayYesNo": "display", "KeyboardDisplay": "display", "KeyboardOnly": "entry"},
    "DisplayYesNo": {"DisplayYesNo": "comparison", "KeyboardDisplay": "comparison", "KeyboardOnly": "entry"},
    "KeyboardDisplay": {"DisplayYesNo": "comparison", "KeyboardDisplay": "comparison", "KeyboardOnly": "entry",
                        "DisplayOnly": "display"},
    "NoInputNoOutput": {},
}
DISCOVERY_FILTER_TYPES = {
    "UUIDs": dbus.Array, "RSSI": dbus.Int16, "Pathloss": dbus.UInt16, "Transport": dbus.String,
    "DuplicateData": dbus.Boolean, "Discoverable": dbus.Boolean, "Pattern": dbus.String,
}
LINK_DROP_AFTER_RESET_MS = 300


class BluezError(dbus.DBusException):
    """An error reply named `org.bluez.Error.<suffix>` (or a full name when `suffix` contains a dot)."""

    def __init__(self, suffix, message=None):
        name = suffix if "." in suffix else "org.bluez.Error." + suffix
        super().__init__(message if message else ERROR_MESSAGES.get(suffix, suffix), name=name)


def log(message):
    print("mock_bluez: " + message, file=sys.stderr, flush=True)


class ManagedObject(dbus.service.Object):
    """An object with org.freedesktop.DBus.Properties that the ObjectManager at / may announce."""

    def __init__(self, mock, path, properties):
        super().__init__()
        self.mock = mock
        self.path = path
        self.properties = properties  # {interface: {name: typed dbus value}}
        self.setters = {}  # (interface, name) -> (dbus type, function(value))

    @property
    def exported(self):
        return self.mock.managed.get(self.path) is self

    def export(self, announce=True):
        self.add_to_connection(self.mock.bus, self.path)
        self.mock.managed[self.path] = self
        if announce:
            self.mock.root.InterfacesAdded(self.path, self.snapshot())

    def unexport(self):
        if not self.exported:
            return
        del self.mock.managed[self.path]
        self.mock.root.InterfacesRemoved(self.path, dbus.Array(self.properties.keys(), signature="s"))
        self.remove_from_connection()

    def snapshot(self):
        return dbus.Dictionary(
            {iface: dbus.Dictionary(props, signature="sv") for iface, props in self.properties.items()},
            signature="sa{sv}")

    def set(self, iface, name, value, always=False):
        """Changes a property and emits PropertiesChanged when it changed (or `always`, as for Value)."""
        old = self.properties[iface].get(name)
        self.properties[iface][name] = value
        if self.exported and (always or old != value):
            self.PropertiesChanged(iface, dbus.Dictionary({name: value}, signature="sv"), dbus.Array([], signature="s"))

    def invalidate(self, iface, name):
        if self.properties[iface].pop(name, None) is not None and self.exported:
            self.PropertiesChanged(iface, dbus.Dictionary({}, signature="sv"), dbus.Array([name], signature="s"))

    def _interface(self, iface):
        if iface not in self.properties:
            raise BluezError("org.freedesktop.DBus.Error.InvalidArgs", "No such interface '%s'" % iface)
        return self.properties[iface]

    @dbus.service.method(PROPERTIES, in_signature="ss", out_signature="v")
    def Get(self, iface, name):
        props = self._interface(iface)
        if name not in props:
            raise BluezError("org.freedesktop.DBus.Error.InvalidArgs", "No such property '%s'" % name)
        return props[name]

    @dbus.service.method(PROPERTIES, in_signature="s", out_signature="a{sv}")
    def GetAll(self, iface):
        return dbus.Dictionary(self._interface(iface), signature="sv")

    @dbus.service.method(PROPERTIES, in_signature="ssv", out_signature="")
    def Set(self, iface, name, value):
        props = self._interface(iface)
        if name not in props:
            raise BluezError("org.freedesktop.DBus.Error.InvalidArgs", "No such property '%s'" % name)
        if (iface, name) not in self.setters:
            raise BluezError("org.freedesktop.DBus.Error.PropertyReadOnly", "Property '%s' is not writable" % name)
        kind, setter = self.setters[(iface, name)]
        if not isinstance(value, kind):
            raise BluezError("org.freedesktop.DBus.Error.InvalidArgs", "Invalid argument type: '%s'" % name)
        setter(value)

    @dbus.service.signal(PROPERTIES, signature="sa{sv}as")
    def PropertiesChanged(self, iface, changed, invalidated):
        pass


class Root(dbus.service.Object):
    """`/`: the ObjectManager."""

    def __init__(self, mock):
        super().__init__(mock.bus, "/")
        self.mock = mock

    @dbus.service.method(OBJECT_MANAGER, out_signature="a{oa{sa{sv}}}")
    def GetManagedObjects(self):
        return dbus.Dictionary({path: obj.snapshot() for path, obj in self.mock.managed.items()},
                               signature="oa{sa{sv}}")

    @dbus.service.signal(OBJECT_MANAGER, signature="oa{sa{sv}}")
    def InterfacesAdded(self, path, interfaces):
        pass

    @dbus.service.signal(OBJECT_MANAGER, signature="oas")
    def InterfacesRemoved(self, path, interfaces):
        pass


class AgentManager(ManagedObject):
    """`/org/bluez`: AgentManager1. Agents are remembered per D-Bus client and forgotten when it leaves."""

    def __init__(self, mock):
        super().__init__(mock, "/org/bluez", {AGENT_MANAGER: {}})
        self.agents = {}  # sender -> (path, capability)
        self.default = None

    @dbus.service.method(AGENT_MANAGER, in_signature="os", sender_keyword="sender")
    def RegisterAgent(self, path, capability, sender):
        self.mock.check_fail("RegisterAgent")
        if capability not in AGENT_CAPABILITIES:
            raise BluezError("InvalidArguments")
        if sender in self.agents:
            raise BluezError("AlreadyExists")
        self.agents[sender] = (path, capability or "KeyboardDisplay")

    @dbus.service.method(AGENT_MANAGER, in_signature="o", sender_keyword="sender")
    def RequestDefaultAgent(self, path, sender):
        self.mock.check_fail("RequestDefaultAgent")
        if self.agents.get(sender, (None,))[0] != path:
            raise BluezError("DoesNotExist", "No such agent")
        self.default = sender

    @dbus.service.method(AGENT_MANAGER, in_signature="o", sender_keyword="sender")
    def UnregisterAgent(self, path, sender):
        self.mock.check_fail("UnregisterAgent")
        if self.agents.get(sender, (None,))[0] != path:
            raise BluezError("DoesNotExist", "No such agent")
        self.forget(sender)

    def forget(self, sender):
        self.agents.pop(sender, None)
        if self.default == sender:
            self.default = None

    def agent_for(self, sender):
        """The agent Device1.Pair() asks (src/device.c: agent_get(sender)): the caller's own, else the default
        agent; (bus name, path, capability), or None (bluetoothd then pairs as NoInputNoOutput)."""
        owner = sender if sender in self.agents else self.default
        if owner is None or owner not in self.agents:
            return None
        return (owner,) + self.agents[owner]


class Pacer:
    """Hands items on at most `per_interval` per connection interval, or at once when pacing is off.

    Items that are callables are run in order without using up the interval's budget (markers such as
    "drop the link after this answer")."""

    def __init__(self, interval_ms, per_interval, deliver):
        self.interval_ms = interval_ms
        self.per_interval = per_interval
        self.deliver = deliver
        self.queue = collections.deque()
        self.timer = None

    def push(self, item):
        if not self.interval_ms:
            self._hand_on(item)
            return
        self.queue.append(item)
        if self.timer is None:
            self.timer = GLib.timeout_add(self.interval_ms, self._tick)

    def _hand_on(self, item):
        if callable(item):
            item()
        else:
            self.deliver(item)

    def _tick(self):
        budget = self.per_interval
        while self.queue and budget > 0:
            item = self.queue.popleft()
            self._hand_on(item)
            if not callable(item):
                budget -= 1
        if self.queue:
            return True
        self.timer = None
        return False

    def close(self):
        if self.timer is not None:
            GLib.source_remove(self.timer)
            self.timer = None
        self.queue.clear()


class Link:
    """One LE connection: ATT MTU, paced traffic both ways and the reassembly of written SMP fragments."""

    def __init__(self, device):
        args = device.mock.args
        self.device = device
        self.buffer = bytearray()
        self.to_device = Pacer(args.interval_ms, args.packets_per_interval, device.write_arrived)
        self.to_client = Pacer(args.interval_ms, args.packets_per_interval, device.notifier.notify)

    def write(self, packet):
        self.to_device.push(bytes(packet))

    def reassemble(self, fragment):
        """Hands each SMP message in the written fragments to the device's backend."""
        self.buffer += fragment
        while len(self.buffer) >= 8:
            total = 8 + int.from_bytes(self.buffer[2:4], "big")
            if len(self.buffer) < total:
                break
            message = bytes(self.buffer[:total])
            del self.buffer[:total]
            self.device.send_to_backend(message)

    def send_to_client(self, message, then=None):
        size = self.device.mtu - 3
        for start in range(0, len(message), size):
            self.to_client.push(message[start:start + size])
        if then is not None:
            self.to_client.push(then)

    def close(self):
        self.to_device.close()
        self.to_client.close()


class AcquiredSocket:
    """Our end of an AcquireWrite/AcquireNotify socketpair; the client gets the other end."""

    def __init__(self, on_datagram, on_closed):
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET | socket.SOCK_NONBLOCK | socket.SOCK_CLOEXEC)
        self.sock = ours
        self.client_end = theirs
        self.on_datagram = on_datagram
        self.on_closed = on_closed
        self.watch = GLib.io_add_watch(ours.fileno(), GLib.PRIORITY_DEFAULT,
                                       GLib.IO_IN | GLib.IO_HUP | GLib.IO_ERR, self._event)

    def _event(self, _fd, condition):
        if condition & GLib.IO_IN:
            while True:
                try:
                    data = self.sock.recv(65536)
                except BlockingIOError:
                    break
                except OSError:
                    data = b""
                if not data:
                    self.watch = None
                    self.on_closed()
                    return False
                self.on_datagram(data)
            return True
        self.watch = None
        self.on_closed()
        return False

    def hand_over(self):
        """The client's end for the method reply. UnixFd holds a dup that dbus-python closes once the
        reply is sent, so that the mock keeps no copy and sees the client close it."""
        fd = dbus.types.UnixFd(self.client_end)
        self.client_end.close()
        return fd

    def peer_closed(self):
        """Whether the client closed its end (the HUP may not have been dispatched yet)."""
        poller = select.poll()
        poller.register(self.sock, select.POLLHUP)
        return any(events & select.POLLHUP for _fd, events in poller.poll(0))

    def send(self, data):
        """Sends one datagram; False when the client's receive buffer is full."""
        try:
            self.sock.send(data)
            return True
        except (BlockingIOError, BrokenPipeError, ConnectionResetError):
            return False

    def close(self):
        if self.watch is not None:
            GLib.source_remove(self.watch)
            self.watch = None
        self.sock.close()


class Characteristic(ManagedObject):
    """A characteristic: WriteValue, AcquireWrite, AcquireNotify, StartNotify/StopNotify, ReadValue, as its
    Flags allow (like bluetoothd: WriteAcquired only with write-without-response, NotifyAcquired only with
    notify). Written values go to `on_write(bytes)`; `value` (bytes) makes it readable."""

    def __init__(self, device, path, uuid, flags, on_write=None, value=None):
        args = device.mock.args
        props = {
            "UUID": dbus.String(uuid),
            "Service": dbus.ObjectPath(path.rsplit("/", 1)[0]),
            "Value": dbus.Array(value or [], signature="y"),
            "Flags": dbus.Array(flags, signature="s"),
        }
        if "notify" in flags or "indicate" in flags:
            props["Notifying"] = dbus.Boolean(False)
        if not args.no_acquire:
            if "write-without-response" in flags:
                props["WriteAcquired"] = dbus.Boolean(False)
            if "notify" in flags:
                props["NotifyAcquired"] = dbus.Boolean(False)
        if not args.no_mtu_property:
            props["MTU"] = dbus.UInt16(device.mtu)
        super().__init__(device.mock, path, {CHARACTERISTIC: props})
        self.device = device
        self.flags = set(flags)
        self.on_write = on_write
        self.value = value
        self.write_io = None
        self.notify_io = None
        self.notify_clients = set()

    def _require_link(self, method):
        self.mock.check_fail(method)
        if not self.device.connected:
            raise BluezError("Failed", "Not connected")
        # A client that closes its fd and acquires again at once must not get "Write acquired".
        if self.write_io is not None and self.write_io.peer_closed():
            self.release_write()
        if self.notify_io is not None and self.notify_io.peer_closed():
            self.release_notify()

    def _require_pairing(self):
        """bluetoothd's answer to ATT Insufficient Authentication/Encryption (src/gatt-client.c)."""
        if self.device.needs_pairing:
            raise BluezError("NotPermitted", "Not paired")

    @dbus.service.method(CHARACTERISTIC, in_signature="a{sv}", out_signature="ay")
    def ReadValue(self, options):
        self._require_link("ReadValue")
        if self.value is None or "read" not in self.flags:
            raise BluezError("NotPermitted", "Read not permitted")
        offset = int(options.get("offset", 0))
        if offset > len(self.value):
            raise BluezError("Failed", "Invalid offset")
        value = dbus.Array(self.value[offset:], signature="y")
        self.set(CHARACTERISTIC, "Value", dbus.Array(self.value, signature="y"))
        return value

    @dbus.service.method(CHARACTERISTIC, in_signature="aya{sv}")
    def WriteValue(self, value, options):
        self._require_link("WriteValue")
        kind = options.get("type")
        if kind not in (None, "command", "request", "reliable"):
            raise BluezError("InvalidArguments")
        if self.write_io is not None:
            raise BluezError("NotPermitted", "Write acquired")
        if kind is None:  # bluetoothd prefers a write request when the characteristic takes one
            kind = "request" if "write" in self.flags else "command"
        if {"command": "write-without-response", "request": "write", "reliable": "reliable-write"}[kind] not in self.flags:
            raise BluezError("NotSupported")
        if kind == "command" and self.device.needs_pairing:
            self.mock.stats["unpaired_drops"] += 1  # a write command gets no ATT answer: the device drops it silently
            return
        self._require_pairing()
        # A write command is one ATT packet; a request longer than that becomes a long write.
        if len(value) > (self.device.mtu - 3 if kind == "command" else 512):
            raise BluezError("Failed", "Failed to initiate write")
        self.mock.count_write(self.path, "writes_value", len(value))
        self.on_write(bytes(value))

    @dbus.service.method(CHARACTERISTIC, in_signature="a{sv}", out_signature="hq")
    def AcquireWrite(self, options):
        self._require_link("AcquireWrite")
        if self.mock.args.no_acquire or "write-without-response" not in self.flags:
            raise BluezError("NotSupported")
        if self.write_io is not None:
            raise BluezError("NotPermitted", "Write acquired")
        self.write_io = AcquiredSocket(self._acquired_write, self.release_write)
        self.set(CHARACTERISTIC, "WriteAcquired", dbus.Boolean(True))
        return self.write_io.hand_over(), dbus.UInt16(self.device.mtu)

    def _acquired_write(self, data):
        if len(data) > self.device.mtu - 3:
            self.mock.stats["oversize_drops"] += 1  # bluetoothd drops these silently
        elif self.device.needs_pairing:
            self.mock.stats["unpaired_drops"] += 1  # a real device ignores unencrypted write commands
        else:
            self.mock.count_write(self.path, "writes_acquired", len(data))
            self.on_write(data)

    def release_write(self):
        if self.write_io is not None:
            self.write_io.close()
            self.write_io = None
            self.set(CHARACTERISTIC, "WriteAcquired", dbus.Boolean(False))

    @dbus.service.method(CHARACTERISTIC, in_signature="a{sv}", out_signature="hq")
    def AcquireNotify(self, options):
        self._require_link("AcquireNotify")
        if self.mock.args.no_acquire or "notify" not in self.flags:
            raise BluezError("NotSupported")
        if self.notify_io is not None:
            raise BluezError("NotPermitted", "Notify acquired")
        if self.notify_clients:
            raise BluezError("InProgress")
        self._require_pairing()
        self.notify_io = AcquiredSocket(lambda _data: None, self.release_notify)
        self.set(CHARACTERISTIC, "NotifyAcquired", dbus.Boolean(True))
        self.set(CHARACTERISTIC, "Notifying", dbus.Boolean(True))
        return self.notify_io.hand_over(), dbus.UInt16(self.device.mtu)

    def release_notify(self):
        if self.notify_io is not None:
            self.notify_io.close()
            self.notify_io = None
            self.set(CHARACTERISTIC, "NotifyAcquired", dbus.Boolean(False))
            self._update_notifying()

    @dbus.service.method(CHARACTERISTIC, sender_keyword="sender")
    def StartNotify(self, sender):
        self._require_link("StartNotify")
        if not self.flags & {"notify", "indicate"}:
            raise BluezError("NotSupported")
        if self.notify_io is not None:
            raise BluezError("NotPermitted", "Notify acquired")
        if sender in self.notify_clients:
            return
        self._require_pairing()
        self.notify_clients.add(sender)
        self._update_notifying()

    @dbus.service.method(CHARACTERISTIC, sender_keyword="sender")
    def StopNotify(self, sender):
        self.mock.check_fail("StopNotify")
        if sender not in self.notify_clients:
            raise BluezError("Failed", "No notify session started")
        self.forget(sender)

    def forget(self, sender):
        self.notify_clients.discard(sender)
        self._update_notifying()

    def _update_notifying(self):
        if "Notifying" not in self.properties[CHARACTERISTIC]:
            return
        self.set(CHARACTERISTIC, "Notifying", dbus.Boolean(bool(self.notify_clients) or self.notify_io is not None))

    def notify(self, chunk):
        """Delivers one notification: a datagram on the acquired fd, else PropertiesChanged(Value)."""
        stats = self.mock.stats
        if self.notify_io is not None:
            delivered = self.notify_io.send(chunk)
        elif self.notify_clients:
            self.set(CHARACTERISTIC, "Value", dbus.Array(chunk, signature="y"), always=True)
            delivered = True
        else:
            delivered = False
        if delivered:
            stats["notifications"] += 1
            stats["notification_bytes"] += len(chunk)
        else:
            stats["notifications_dropped"] += 1

    def link_lost(self):
        """Closes the acquired fds (the client sees EOF/HUP) and ends every notify session."""
        self.release_write()
        self.release_notify()
        self.notify_clients.clear()
        self._update_notifying()


class Pairing:
    """One Device1.Pair(): the agent's part of the chosen method (doc/org.bluez.Agent.rst), then the answer
    (src/device.c new_authentication_return). An agent that does not answer within --pairing-timeout (SMP's 30 s)
    gets Cancel() and Pair() fails with AuthenticationTimeout."""

    def __init__(self, device, agent, reply, error):
        self.device, self.agent, self.reply, self.error = device, agent, reply, error
        self.timer = None
        self.done = False

    @property
    def method(self):
        local = self.agent[2] if self.agent else "NoInputNoOutput"
        return PAIRING_METHODS[self.device.mock.args.io_capability].get(local, "just-works")

    def _agent_call(self, member, signature, *args, reply=None):
        owner, path = self.agent[0], self.agent[1]
        mock = self.device.mock
        mock.stats["agent_calls"] += 1
        log("agent %s %s.%s" % (owner, path, member))
        proxy = mock.bus.get_object(owner, path, introspect=False)
        method = proxy.get_dbus_method(member, AGENT)
        if reply is None:
            method(*args, signature=signature, ignore_reply=True)
        else:
            method(*args, signature=signature, reply_handler=reply, error_handler=self._agent_failed, timeout=600)

    def start(self):
        mock = self.device.mock
        mock.stats["pairings"] += 1
        passkey = dbus.UInt32(mock.args.passkey)
        path = dbus.ObjectPath(self.device.path)
        method = self.method
        if method == "just-works":
            if mock.args.security == "authenticate":
                GLib.timeout_add(20, lambda: self.finish("AuthenticationFailed") and False)
            else:
                GLib.timeout_add(20, lambda: self.finish() and False)
            return
        self.timer = GLib.timeout_add(int(mock.args.pairing_timeout * 1000), self._timed_out)
        if method == "entry":
            self._agent_call("RequestPasskey", "o", path,
                             reply=lambda entered: self.finish(None if int(entered) == mock.args.passkey else "AuthenticationFailed"))
        elif method == "comparison":
            self._agent_call("RequestConfirmation", "ou", path, passkey, reply=lambda: self.finish())
        else:  # display: the device's user types the passkey, one key at a time
            for entered in range(0, 7):
                GLib.timeout_add(10 + 20 * entered, self._display, path, passkey, entered)
            GLib.timeout_add(10 + 20 * 7, lambda: self.finish() and False)

    def _display(self, path, passkey, entered):
        if not self.done:
            self._agent_call("DisplayPasskey", "ouq", path, passkey, dbus.UInt16(entered))
        return False

    def _agent_failed(self, exception):
        log("agent answered %s" % exception.get_dbus_name())
        self.finish("AuthenticationFailed")

    def _timed_out(self):
        self.timer = None
        if not self.done:
            self._agent_call("Cancel", "")
            self.finish("AuthenticationTimeout")
        return False

    def finish(self, failure=None):
        if self.done:
            return
        self.done = True
        if self.timer is not None:
            GLib.source_remove(self.timer)
            self.timer = None
        self.device.pairing = None
        if failure:
            self.error(BluezError(failure, failure.replace("Authentication", "Authentication ")))
            return
        for name in ("Paired", "Bonded"):
            self.device.set(DEVICE, name, dbus.Boolean(True))
        self.reply()


class Device(ManagedObject):
    """A Device1 plus its GATT objects, its advertising state and its UDP link to a virtual SMP device."""

    def __init__(self, adapter, address, name, port, rssi):
        mock = adapter.mock
        address_type = "random" if int(address[:2], 16) & 0xC0 == 0xC0 else "public"
        self.advertised_uuids = self.advertised_service_uuids(mock.args)
        props = {
            "Address": dbus.String(address), "AddressType": dbus.String(address_type),
            "Name": dbus.String(name), "Alias": dbus.String(name),
            "Paired": dbus.Boolean(False), "Bonded": dbus.Boolean(False), "Trusted": dbus.Boolean(False),
            "Blocked": dbus.Boolean(False), "LegacyPairing": dbus.Boolean(False),
            "Connected": dbus.Boolean(False), "ServicesResolved": dbus.Boolean(False),
            "UUIDs": dbus.Array(self.advertised_uuids, signature="s"),
            "Adapter": dbus.ObjectPath(adapter.path),
        }
        super().__init__(mock, "%s/dev_%s" % (adapter.path, address.replace(":", "_")), {DEVICE: props})
        self.adapter = adapter
        self.address, self.name, self.port, self.rssi = address, name, port, rssi
        self.advertising = True
        self.gone = False  # came back under another address after a reset
        self.pairing = None  # the Pairing under way
        self.connecting = False
        self.link = None
        self.pending_resets = set()
        self.gatt = []  # service, characteristic and descriptor objects, in export order
        self.service_uuids = []
        self.characteristics = []
        self.notifier = None  # the characteristic that notifies what the device sends
        self.setters = {
            (DEVICE, "Trusted"): (dbus.Boolean, lambda v: self.set(DEVICE, "Trusted", dbus.Boolean(v))),
            (DEVICE, "Blocked"): (dbus.Boolean, lambda v: self.set(DEVICE, "Blocked", dbus.Boolean(v))),
            (DEVICE, "Alias"): (dbus.String, lambda v: self.set(DEVICE, "Alias", dbus.String(v or self.name))),
        }
        self.udp = None
        if port is not None:
            self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            self.udp.connect(("127.0.0.1", port))
            self.udp.setblocking(False)
            self.udp_watch = GLib.io_add_watch(self.udp.fileno(), GLib.PRIORITY_DEFAULT, GLib.IO_IN, self._answer_arrived)

    @property
    def connected(self):
        return self.link is not None

    @property
    def mtu(self):
        """The ATT MTU of a link (--mtu, changed by Control1.SetMTU)."""
        return self.mock.mtu

    # The GATT database

    def advertised_service_uuids(self, args):
        return [] if args.no_uuid_adv else [SMP_SERVICE_UUID]

    def build_gatt(self):
        """Makes the GATT objects (self.gatt, self.characteristics, self.notifier); returns the service UUIDs."""
        service = self.add_service(0x000A, SMP_SERVICE_UUID)
        self.notifier = self.add_characteristic(
            service, 0x000B, SMP_CHARACTERISTIC_UUID, ["write-without-response", "notify"], lambda data: self.link.write(data))
        return [SMP_SERVICE_UUID]

    def add_service(self, handle, uuid):
        service = ManagedObject(self.mock, "%s/service%04x" % (self.path, handle), {SERVICE: {
            "UUID": dbus.String(uuid), "Device": dbus.ObjectPath(self.path),
            "Primary": dbus.Boolean(True), "Includes": dbus.Array([], signature="o")}})
        self.gatt.append(service)
        return service

    def add_characteristic(self, service, handle, uuid, flags, on_write=None, value=None):
        """A characteristic at `handle`, with a CCCD at `handle` + 2 when it notifies or indicates."""
        characteristic = Characteristic(self, "%s/char%04x" % (service.path, handle), uuid, flags, on_write, value)
        self.gatt.append(characteristic)
        self.characteristics.append(characteristic)
        if {"notify", "indicate"} & set(flags):
            self.gatt.append(ManagedObject(self.mock, "%s/desc%04x" % (characteristic.path, handle + 2), {DESCRIPTOR: {
                "UUID": dbus.String(CCCD_UUID), "Characteristic": dbus.ObjectPath(characteristic.path),
                "Value": dbus.Array([], signature="y")}}))
        return characteristic

    def write_arrived(self, packet):
        """A written packet reaches the device (after pacing)."""
        self.link.reassemble(packet)

    def forget_gatt(self):
        for obj in reversed(self.gatt):
            obj.unexport()
        self.gatt = []
        self.characteristics = []
        self.notifier = None

    @property
    def paired(self):
        return bool(self.properties[DEVICE]["Paired"])

    @property
    def bonded(self):
        return bool(self.properties[DEVICE]["Bonded"])

    @property
    def needs_pairing(self):
        """Whether its GATT attributes refuse this link: they require security (--security) and it is not paired."""
        return self.mock.args.security != "none" and not self.paired

    @property
    def connectable(self):
        return self.advertising and not self.gone

    # Discovery

    def seen(self):
        """An advertisement was received: appear (InterfacesAdded) or update RSSI."""
        self.rssi = self.rssi - 1 if self.properties[DEVICE].get("RSSI") == self.rssi else self.rssi + 1
        if self.exported:
            self.set(DEVICE, "RSSI", dbus.Int16(self.rssi))
        else:
            self.properties[DEVICE]["RSSI"] = dbus.Int16(self.rssi)
            self.export()

    # Connection

    def establish(self, on_done, on_error):
        """Connects like bluetoothd: Connected=true, InterfacesAdded(GATT), ServicesResolved=true, reply."""
        if not self.adapter.powered:
            raise BluezError("NotReady")
        if self.connected:
            raise BluezError("AlreadyConnected")
        if self.connecting:
            raise BluezError("InProgress")
        self.connecting = True
        args = self.mock.args
        if not self.connectable:
            GLib.timeout_add(int(args.connect_timeout * 1000), self._connect_failed, on_error)
            return
        GLib.timeout_add(int(args.connect_delay * 1000), self._connected, on_done, on_error)

    def _connect_failed(self, on_error):
        self.connecting = False
        self.mock.stats["connect_failures"] += 1
        on_error(BluezError("Failed", "le-connection-abort-by-local"))
        return False

    def _connected(self, on_done, on_error):
        if not self.connecting:  # cancelled by Disconnect or power off
            on_error(BluezError("Failed", "Operation was cancelled"))
            return False
        self.connecting = False
        if not self.connectable:
            return self._connect_failed(on_error)
        if not self.gatt:
            self.service_uuids = self.build_gatt()
        self.link = Link(self)
        self.mock.stats["connects"] += 1
        self.set(DEVICE, "Connected", dbus.Boolean(True))
        for obj in self.gatt:
            if not obj.exported:
                obj.export()
        if not self.mock.args.no_mtu_property:
            for characteristic in self.characteristics:
                characteristic.set(CHARACTERISTIC, "MTU", dbus.UInt16(self.mtu))
        self.set(DEVICE, "UUIDs", dbus.Array(sorted({GAP_UUID, GATT_UUID, *self.service_uuids}), signature="s"))
        self.set(DEVICE, "ServicesResolved", dbus.Boolean(True))
        self.link_made()
        on_done()
        return False

    def link_made(self):
        """A central connected (the bridged devices tell their backend)."""

    def drop_link(self):
        """Disconnect or link loss: fds closed, GATT objects removed (kept when bonded, like bluetoothd's
        attribute cache), ServicesResolved=false, Connected=false. Queued requests and answers are lost."""
        self.connecting = False
        if not self.connected:
            return
        self.link.close()
        self.link = None
        self.pending_resets.clear()
        self.mock.stats["disconnects"] += 1
        for characteristic in self.characteristics:
            characteristic.link_lost()
        if not self.bonded:
            self.forget_gatt()
        self.set(DEVICE, "ServicesResolved", dbus.Boolean(False))
        self.set(DEVICE, "Connected", dbus.Boolean(False))
        self.link_ended()

    def link_ended(self):
        """The link ended (the bridged devices tell their backend)."""

    def remove(self):
        """Adapter1.RemoveDevice: disconnects, forgets the bond and removes every object of the device."""
        self.drop_link()
        self.forget_gatt()
        for name in ("Paired", "Bonded", "Trusted"):
            self.properties[DEVICE][name] = dbus.Boolean(False)
        self.properties[DEVICE].pop("RSSI", None)
        self.properties[DEVICE]["UUIDs"] = dbus.Array(self.advertised_uuids, signature="s")
        self.unexport()

    @dbus.service.method(DEVICE, async_callbacks=("reply", "error"))
    def Connect(self, reply, error):
        self.mock.check_fail("Connect")
        self.establish(reply, error)

    @dbus.service.method(DEVICE)
    def Disconnect(self):
        self.mock.check_fail("Disconnect")
        if not self.connected and not self.connecting:
            raise BluezError("NotConnected")
        self.drop_link()

    @dbus.service.method(DEVICE, sender_keyword="sender", async_callbacks=("reply", "error"))
    def Pair(self, sender, reply, error):
        """Connects if needed, then pairs through the caller's agent (else the default agent, else none), by the
        method the two IO capabilities choose. Sets Paired and Bonded, not Trusted (bluetoothd 5.66 src/device.c)."""
        self.mock.check_fail("Pair")
        if self.paired:
            raise BluezError("AlreadyExists")
        if self.pairing is not None:
            raise BluezError("InProgress")
        pairing = Pairing(self, self.mock.agent_manager.agent_for(sender), reply, error)
        if self.connected:
            GLib.timeout_add(20, lambda: pairing.start() and False)
        else:
            def failed(exception):
                self.pairing = None
                error(exception)
            self.establish(pairing.start, failed)
        self.pairing = pairing

    @dbus.service.method(DEVICE)
    def CancelPairing(self):
        if self.pairing is None:
            raise BluezError("DoesNotExist")
        self.pairing.finish("AuthenticationCanceled")

    # The SMP bridge

    def send_to_backend(self, message):
        stats = self.mock.stats
        stats["smp_requests"] += 1
        if self.mock.responder == "silent" or self.udp is None:
            stats["requests_unanswered"] += 1
            return
        op, group, seq, command = message[0] & 0x07, int.from_bytes(message[4:6], "big"), message[6], message[7]
        if op == 2 and group == 0 and command == 5:
            self.pending_resets.add(seq)
        try:
            self.udp.send(message)
        except OSError as failure:
            stats["backend_errors"] += 1
            log("sending to the SMP device on UDP port %d failed: %s" % (self.port, failure))

    def _answer_arrived(self, _fd, _condition):
        while True:
            try:
                answer = self.udp.recv(65536)
            except BlockingIOError:
                return True
            except OSError as failure:  # ECONNREFUSED: nothing listens on the port (yet)
                self.mock.stats["backend_errors"] += 1
                log("the SMP device on UDP port %d: %s" % (self.port, failure))
                continue
            self._forward_answer(answer)

    def _forward_answer(self, answer):
        if not self.connected:
            self.mock.stats["answers_dropped"] += 1
            return
        self.mock.stats["smp_responses"] += 1
        then = None
        if self.mock.args.reset_drops_link and self._is_reset_done(answer):
            then = lambda: GLib.timeout_add(LINK_DROP_AFTER_RESET_MS, self._reboot) and None
        self.link.send_to_client(answer, then)

    def _is_reset_done(self, answer):
        if len(answer) < 8 or answer[0] & 0x07 != 3 or int.from_bytes(answer[4:6], "big") != 0 or answer[7] != 5:
            return False
        if answer[6] not in self.pending_resets:
            return False
        self.pending_resets.discard(answer[6])
        body = answer[8:]
        return (b"\x62rc" not in body or b"\x62rc\x00" in body) and b"\x63err" not in body

    def _reboot(self):
        """After a reset: link loss, then no advertising for --reboot-time seconds."""
        self.mock.stats["resets"] += 1
        self.drop_link()
        self.advertising = False
        GLib.timeout_add(int(self.mock.args.reboot_time * 1000), self._readvertise)
        return False

    def _readvertise(self):
        new_address = self.mock.args.new_address_after_reset
        if new_address:
            self.mock.args.new_address_after_reset = None
            self.gone = True
            if self.udp is not None:
                GLib.source_remove(self.udp_watch)
                self.udp.close()
                self.udp = None
            self.adapter.add_device(new_address, self.name, self.port, self.rssi)
        self.advertising = True
        self.adapter.scan_soon()
        return False

    def close_backend(self):
        if self.udp is not None:
            GLib.source_remove(self.udp_watch)
            self.udp.close()
            self.udp = None

    def close(self):
        self.drop_link()
        self.close_backend()


class DFUDevice(Device):
    """A Nordic DFU device (--dfu-device): the GATT layout of its kind, its characteristics bridged to a
    NordicDFUDatagramServer on a UDP port (docs/ble-testing.md, "The Nordic DFU bridge")."""

    def __init__(self, adapter, address, name, port, rssi, kind):
        self.kind = kind
        super().__init__(adapter, address, name, port, rssi)

    def advertised_service_uuids(self, _args):
        """The bootloaders advertise their DFU service; applications advertise none of them (nrf-ota, like
        nRF Connect, takes a device that advertises the legacy DFU service for a bootloader)."""
        return {"secure": [SECURE_DFU_SERVICE_UUID], "legacy": [LEGACY_DFU_SERVICE_UUID]}.get(self.kind, [])

    def build_gatt(self):
        control_point = lambda data: self._write(BRIDGE_CONTROL_POINT_WRITE, data)
        data_packet = lambda data: self._write(BRIDGE_DATA_WRITE, data)
        if self.kind in ("secure", "buttonless-secure", "buttonless-secure-bonded"):
            service = self.add_service(0x000A, SECURE_DFU_SERVICE_UUID)
            if self.kind == "secure":
                self.notifier = self.add_characteristic(service, 0x000B, SECURE_DFU_CONTROL_POINT_UUID, ["write", "notify"], control_point)
                self.add_characteristic(service, 0x000E, SECURE_DFU_DATA_UUID, ["write-without-response"], data_packet)
            else:
                uuid = BUTTONLESS_DFU_UUID if self.kind == "buttonless-secure" else BUTTONLESS_DFU_BONDED_UUID
                self.notifier = self.add_characteristic(service, 0x000B, uuid, ["write", "indicate"], self._buttonless_write)
            return [SECURE_DFU_SERVICE_UUID]
        service = self.add_service(0x000A, LEGACY_DFU_SERVICE_UUID)
        self.notifier = self.add_characteristic(service, 0x000B, LEGACY_DFU_CONTROL_POINT_UUID, ["write", "notify"], control_point)
        self.add_characteristic(service, 0x000E, LEGACY_DFU_PACKET_UUID, ["write-without-response"], data_packet)
        # The DFU Version: 0.8 in the bootloader (SDK 11, signed init packets), 0x0001 in an application.
        version = [0x08, 0x00] if self.kind == "legacy" else [0x01, 0x00]
        self.add_characteristic(service, 0x0010, LEGACY_DFU_VERSION_UUID, ["read"], value=version)
        return [LEGACY_DFU_SERVICE_UUID]

    def _buttonless_write(self, data):
        """The SDK's buttonless service refuses writes until indications are on (CCCD improperly configured)."""
        if not self.notifier.notify_clients:
            raise BluezError("Failed", "Operation failed with ATT error: 0xfd")
        self._write(BRIDGE_CONTROL_POINT_WRITE, data)

    def _write(self, tag, data):
        self.link.write(bytes([tag]) + bytes(data))

    def write_arrived(self, packet):
        self._send(packet)

    def link_made(self):
        self._send(bytes([BRIDGE_CONNECTED]) + bytes(int(part, 16) for part in self.address.split(":")))

    def link_ended(self):
        self._send(bytes([BRIDGE_DISCONNECTED]))

    def _send(self, datagram):
        if self.udp is None:
            return
        self.mock.stats["dfu_events"] += 1
        try:
            self.udp.send(datagram)
        except OSError as failure:
            self.mock.stats["backend_errors"] += 1
            log("sending to the DFU device on UDP port %d failed: %s" % (self.port, failure))

    def _forward_answer(self, answer):
        self.mock.stats["dfu_commands"] += 1
        tag, payload = (answer[0], answer[1:]) if answer else (None, b"")
        if not self.connected and tag in (BRIDGE_NOTIFY, BRIDGE_RESET, BRIDGE_REBOOT_INTO_BOOTLOADER):
            self.mock.stats["answers_dropped"] += 1
        elif tag == BRIDGE_NOTIFY:
            self.link.to_client.push(bytes(payload))
        elif tag == BRIDGE_RESET and not payload:
            self._after_notifications(self._reboot)
        elif tag == BRIDGE_REBOOT_INTO_BOOTLOADER and len(payload) >= 7 and payload[0] in BRIDGE_BOOTLOADER_KINDS:
            address = ":".join("%02X" % byte for byte in payload[1:7])
            name = bytes(payload[7:]).decode("utf-8", "replace")
            self._after_notifications(lambda: self._reboot_into(BRIDGE_BOOTLOADER_KINDS[payload[0]], address, name))
        else:
            self.mock.stats["backend_errors"] += 1
            log("malformed datagram from the DFU device on UDP port %d: %s" % (self.port, bytes(answer).hex()))

    def _after_notifications(self, reboot):
        """Like an SMP reset: the notifications queued go first, the link drops LINK_DROP_AFTER_RESET_MS later (a
        device takes a connection event or more to disconnect; a client may disconnect first)."""
        self.link.to_client.push(lambda: GLib.timeout_add(LINK_DROP_AFTER_RESET_MS, lambda: reboot() and False) and None)

    def _reboot_into(self, kind, address, name):
        """The application jumps to its bootloader: the link drops, this device stops advertising for good and,
        after --reboot-time, the bootloader advertises at `address` (a new object at the same path when the
        address is the same), bridged to the same server."""
        self.mock.stats["resets"] += 1
        self.drop_link()
        self.gone = True
        self.close_backend()

        def come_back():
            if address == self.address:
                self.adapter.devices.remove(self)
                self.remove()
            self.adapter.add_device(address, name, self.port, self.rssi, kind=kind)
            self.adapter.scan_soon()
            return False

        GLib.timeout_add(int(self.mock.args.reboot_time * 1000), come_back)


class Adapter(ManagedObject):
    """Adapter1: power, per-client discovery sessions with filters, RemoveDevice."""

    def __init__(self, mock):
        args = mock.args
        props = {
            "Address": dbus.String(args.adapter_address), "AddressType": dbus.String("public"),
            "Name": dbus.String("mock-bluez"), "Alias": dbus.String("mock-bluez"), "Class": dbus.UInt32(0),
            "Powered": dbus.Boolean(args.powered == 1), "Discoverable": dbus.Boolean(False),
            "DiscoverableTimeout": dbus.UInt32(180), "Pairable": dbus.Boolean(True), "PairableTimeout": dbus.UInt32(0),
            "Discovering": dbus.Boolean(False), "UUIDs": dbus.Array([], signature="s"),
            "Modalias": dbus.String("usb:v1D6Bp0246d0542"), "Roles": dbus.Array(["central", "peripheral"], signature="s"),
        }
        super().__init__(mock, "/org/bluez/" + args.adapter, {ADAPTER: props})
        self.setters = {
            (ADAPTER, "Powered"): (dbus.Boolean, self._set_powered),
            (ADAPTER, "Alias"): (dbus.String, lambda v: self.set(ADAPTER, "Alias", dbus.String(v or "mock-bluez"))),
            (ADAPTER, "Discoverable"): (dbus.Boolean, lambda v: self.set(ADAPTER, "Discoverable", dbus.Boolean(v))),
            (ADAPTER, "Pairable"): (dbus.Boolean, lambda v: self.set(ADAPTER, "Pairable", dbus.Boolean(v))),
        }
        self.devices = []
        self.filters = {}  # sender -> filter dict (kept from SetDiscoveryFilter until the client leaves)
        self.discovering = set()  # senders with a running discovery
        self.scan_timer = None

    @property
    def powered(self):
        return bool(self.properties[ADAPTER]["Powered"])

    def add_device(self, address, name, port, rssi, cached=False, kind=None):
        """An SMP device, or with `kind` a Nordic DFU device."""
        if kind is None:
            device = Device(self, address.upper(), name, port, rssi)
        else:
            device = DFUDevice(self, address.upper(), name, port, rssi, kind)
        self.devices.append(device)
        if cached:
            device.export(announce=False)
        return device

    def _set_powered(self, value):
        if not value:
            for device in self.devices:
                device.drop_link()
            self.discovering.clear()
            self._discovery_changed()
        self.set(ADAPTER, "Powered", dbus.Boolean(value))

    @dbus.service.method(ADAPTER, in_signature="a{sv}", sender_keyword="sender")
    def SetDiscoveryFilter(self, options, sender):
        self.mock.check_fail("SetDiscoveryFilter")
        for key, value in options.items():
            if key not in DISCOVERY_FILTER_TYPES or not isinstance(value, DISCOVERY_FILTER_TYPES[key]):
                raise BluezError("InvalidArguments")
        if "RSSI" in options and "Pathloss" in options:
            raise BluezError("InvalidArguments")
        if options.get("Transport", "auto") not in ("auto", "bredr", "le"):
            raise BluezError("InvalidArguments")
        if any(not isinstance(uuid, dbus.String) for uuid in options.get("UUIDs", [])):
            raise BluezError("InvalidArguments")
        if options:
            self.filters[sender] = {key: value for key, value in options.items()}
        else:
            self.filters.pop(sender, None)

    @dbus.service.method(ADAPTER, sender_keyword="sender")
    def StartDiscovery(self, sender):
        self.mock.check_fail("StartDiscovery")
        if not self.powered:
            raise BluezError("NotReady")
        if sender in self.discovering:
            raise BluezError("InProgress", "Operation already in progress")
        self.discovering.add(sender)
        self._discovery_changed()

    @dbus.service.method(ADAPTER, sender_keyword="sender")
    def StopDiscovery(self, sender):
        self.mock.check_fail("StopDiscovery")
        if not self.powered:
            raise BluezError("NotReady")
        if sender not in self.discovering:
            raise BluezError("Failed", "No discovery started")
        self.discovering.discard(sender)
        self._discovery_changed()

    @dbus.service.method(ADAPTER, in_signature="o")
    def RemoveDevice(self, path):
        self.mock.check_fail("RemoveDevice")
        device = next((d for d in self.devices if d.path == path and d.exported), None)
        if device is None:
            raise BluezError("DoesNotExist")
        device.remove()

    @dbus.service.method(ADAPTER, out_signature="as")
    def GetDiscoveryFilters(self):
        return dbus.Array(DISCOVERY_FILTER_TYPES.keys(), signature="s")

    def forget(self, sender):
        self.filters.pop(sender, None)
        if sender in self.discovering:
            self.discovering.discard(sender)
            self._discovery_changed()

    def _discovery_changed(self):
        active = bool(self.discovering)
        if active and self.scan_timer is None:
            self.scan_timer = GLib.timeout_add(int(self.mock.args.discovery_delay * 1000), self._first_scan)
        if not active:
            if self.scan_timer is not None:
                GLib.source_remove(self.scan_timer)
                self.scan_timer = None
            for device in self.devices:
                if not device.connected:
                    device.invalidate(DEVICE, "RSSI")
        self.set(ADAPTER, "Discovering", dbus.Boolean(active))

    def scan_soon(self):
        """A device started advertising again: report it after the discovery delay."""
        if self.discovering:
            GLib.timeout_add(int(self.mock.args.discovery_delay * 1000), lambda: self._scan() and False)

    def _first_scan(self):
        self._scan()
        self.scan_timer = GLib.timeout_add(int(self.mock.args.scan_interval * 1000), self._scan)
        return False

    def _scan(self):
        for device in list(self.devices):
            if device.connectable and not device.connected and any(
                    self._matches(self.filters.get(sender, {}), device) for sender in self.discovering):
                device.seen()
        return bool(self.discovering)

    @staticmethod
    def _matches(criteria, device):
        if criteria.get("Transport") == "bredr":
            return False
        uuids = [str(uuid).lower() for uuid in criteria.get("UUIDs", [])]
        if uuids and not set(uuids) & set(device.advertised_uuids):
            return False
        if "RSSI" in criteria and device.rssi < int(criteria["RSSI"]):
            return False
        pattern = str(criteria.get("Pattern", ""))
        return device.address.startswith(pattern.upper()) or device.name.startswith(pattern)


class Control(dbus.service.Object):
    """`/org/bluez/mock`, org.bluez.mock.Control1: test hooks (not in the ObjectManager tree)."""

    def __init__(self, mock):
        super().__init__(mock.bus, CONTROL_PATH)
        self.mock = mock

    @dbus.service.method(CONTROL, in_signature="sss")
    def FailNext(self, method, error_suffix, message):
        self.mock.failures[str(method)] = BluezError(str(error_suffix), str(message))

    @dbus.service.method(CONTROL)
    def DropLink(self):
        for device in self.mock.devices():
            device.drop_link()

    @dbus.service.method(CONTROL, in_signature="q")
    def SetMTU(self, mtu):
        if mtu < 23:
            raise BluezError("InvalidArguments", "The ATT MTU is at least 23")
        self.mock.mtu = int(mtu)
        if self.mock.args.no_mtu_property:
            return
        for device in self.mock.devices():
            if device.connected:
                for characteristic in device.characteristics:
                    characteristic.set(CHARACTERISTIC, "MTU", dbus.UInt16(mtu))

    @dbus.service.method(CONTROL, in_signature="s")
    def SetResponder(self, responder):
        if responder not in ("bridge", "silent"):
            raise BluezError("InvalidArguments", "The responder is 'bridge' or 'silent'")
        self.mock.responder = str(responder)

    @dbus.service.method(CONTROL, in_signature="ay")
    def Notify(self, value):
        for device in self.mock.devices():
            if device.connected:
                device.link.send_to_client(bytes(value))

    @dbus.service.method(CONTROL, out_signature="a{sv}")
    def GetStats(self):
        return dbus.Dictionary({key: dbus.Int64(value) for key, value in self.mock.stats.items()}, signature="sv")


class Mock:
    """The whole mock: the objects, the one-shot injected failures, the statistics."""

    STATS = ("writes_value", "writes_acquired", "bytes_written", "notifications", "notification_bytes",
             "notifications_dropped", "oversize_drops", "unpaired_drops", "smp_requests", "smp_responses",
             "requests_unanswered", "answers_dropped", "backend_errors", "connects", "connect_failures",
             "disconnects", "resets", "dfu_events", "dfu_commands", "pairings", "agent_calls")

    def __init__(self, args, bus):
        self.args = args
        self.bus = bus
        self.mtu = args.mtu
        self.responder = "bridge"
        self.failures = {}
        self.stats = collections.Counter({key: 0 for key in self.STATS})
        self.managed = {}
        self.root = Root(self)
        self.agent_manager = AgentManager(self)
        self.agent_manager.export(announce=False)
        self.control = Control(self)
        self.adapter = None
        if not args.no_adapter:
            self.adapter = Adapter(self)
            self.adapter.export(announce=False)
            for index, (address, name, port) in enumerate(args.device):
                self.adapter.add_device(address, name, port, -50 - 5 * index, cached=args.cached)
            for index, (address, name, port, kind) in enumerate(args.dfu_device, start=len(args.device)):
                self.adapter.add_device(address, name, port, -50 - 5 * index, cached=args.cached, kind=kind)
        bus.add_signal_receiver(self._name_owner_changed, signal_name="NameOwnerChanged",
                                dbus_interface="org.freedesktop.DBus", bus_name="org.freedesktop.DBus")

    def devices(self):
        return list(self.adapter.devices) if self.adapter else []

    def check_fail(self, method):
        failure = self.failures.pop(method, None)
        if failure is not None:
            raise failure

    def count_write(self, path, kind, length):
        self.stats[kind] += 1
        self.stats["bytes_written"] += length
        self.stats["writes:" + path] += 1

    def _name_owner_changed(self, name, _old_owner, new_owner):
        """A D-Bus client left: end its discovery, notify sessions and agent, like bluetoothd."""
        if new_owner or not name.startswith(":"):
            return
        self.agent_manager.forget(name)
        if self.adapter:
            self.adapter.forget(name)
        for device in self.devices():
            for characteristic in device.characteristics:
                characteristic.forget(name)

    def close(self):
        for device in self.devices():
            device.close()


def device_spec(text):
    parts = text.split(",")
    if len(parts) not in (2, 3) or not parts[0] or not parts[1]:
        raise argparse.ArgumentTypeError("expected ADDRESS,NAME[,SMP_UDP_PORT], got %r" % text)
    if len(parts[0].split(":")) != 6:
        raise argparse.ArgumentTypeError("%r is not a Bluetooth address like C0:FF:EE:00:00:01" % parts[0])
    return parts[0].upper(), parts[1], int(parts[2]) if len(parts) == 3 else None


def dfu_device_spec(text):
    parts = text.split(",")
    if len(parts) != 4 or not parts[1] or parts[3] not in DFU_KINDS or not parts[2].isdigit():
        raise argparse.ArgumentTypeError("expected ADDRESS,NAME,UDP_PORT,KIND with KIND one of %s, got %r"
                                         % (", ".join(DFU_KINDS), text))
    address, name, _port = device_spec(",".join(parts[:3]))
    return address, name, int(parts[2]), parts[3]


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description="Mock bluetoothd 5.66 (org.bluez) on a private D-Bus bus.")
    parser.add_argument("--adapter", default="hci0", help="adapter name (default hci0)")
    parser.add_argument("--adapter-address", default="00:AA:BB:CC:DD:EE")
    parser.add_argument("--no-adapter", action="store_true", help="export no Adapter1 at all")
    parser.add_argument("--powered", type=int, choices=(0, 1), default=1, help="initial Powered (default 1)")
    parser.add_argument("--device", type=device_spec, action="append", default=[],
                        help="ADDRESS,NAME[,SMP_UDP_PORT] (repeatable; default C0:FF:EE:00:00:01,Zephyr,--smp-port)")
    parser.add_argument("--dfu-device", type=dfu_device_spec, action="append", default=[],
                        help="ADDRESS,NAME,UDP_PORT,KIND: a Nordic DFU device bridged to a NordicDFUDatagramServer "
                             "(smpctl simulate --nordic-dfu --udp); KIND: " + ", ".join(DFU_KINDS) + " (repeatable)")
    parser.add_argument("--smp-port", type=int, help="UDP port of the virtual SMP device behind the default device")
    parser.add_argument("--cached", action="store_true", help="devices exist from the start (no InterfacesAdded)")
    parser.add_argument("--no-uuid-adv", action="store_true", help="devices don't advertise the SMP service UUID")
    parser.add_argument("--discovery-delay", type=float, default=0.2, help="seconds until devices are found")
    parser.add_argument("--scan-interval", type=float, default=0.5, help="seconds between RSSI updates")
    parser.add_argument("--connect-delay", type=float, default=0.05, help="seconds to connect")
    parser.add_argument("--connect-timeout", type=float, default=2.0,
                        help="seconds until Connect to a device that doesn't advertise fails")
    parser.add_argument("--mtu", type=int, default=247, help="ATT MTU (default 247)")
    parser.add_argument("--no-acquire", action="store_true", help="no AcquireWrite/AcquireNotify (older BlueZ)")
    parser.add_argument("--no-mtu-property", action="store_true", help="no MTU property (BlueZ before 5.62)")
    parser.add_argument("--reset-drops-link", action=argparse.BooleanOptionalAction, default=True,
                        help="an answered OS reset drops the link and the device reboots (default on)")
    parser.add_argument("--reboot-time", type=float, default=1.0, help="seconds a reset device doesn't advertise")
    parser.add_argument("--new-address-after-reset", help="the device comes back under this address")
    parser.add_argument("--interval-ms", type=int, default=0, help="connection interval for pacing (0: off)")
    parser.add_argument("--packets-per-interval", type=int, default=4, help="ATT packets per interval and direction")
    parser.add_argument("--require-pairing", action="store_true", help="the same as --security encrypt")
    parser.add_argument("--security", choices=("none", "encrypt", "authenticate"), default="none",
                        help="what the SMP characteristic requires: an encrypted link (any pairing, Just Works too) or an "
                             "authenticated one (passkey or numeric comparison; Just Works fails with AuthenticationFailed)")
    parser.add_argument("--io-capability", choices=IO_CAPABILITIES, default="NoInputNoOutput",
                        help="the device's SMP IO capability, which chooses the pairing method (default NoInputNoOutput)")
    parser.add_argument("--passkey", type=int, default=123456,
                        help="the passkey the device displays or types, the number it compares (default 123456)")
    parser.add_argument("--pairing-timeout", type=float, default=30.0,
                        help="seconds the pairing waits for the agent before Cancel and AuthenticationTimeout")
    args = parser.parse_args(argv)
    if args.require_pairing and args.security == "none":
        args.security = "encrypt"
    if not 0 <= args.passkey <= 999999:
        parser.error("--passkey must be 0...999999")
    if not args.device and not args.dfu_device:
        args.device = [("C0:FF:EE:00:00:01", "Zephyr", args.smp_port)]
    if args.mtu < 23 or args.mtu > 517:
        parser.error("--mtu must be 23...517")
    if args.interval_ms and args.packets_per_interval < 1:
        parser.error("--packets-per-interval must be at least 1")
    return args


def main(argv):
    args = parse_arguments(argv)
    if not os.environ.get("DBUS_SYSTEM_BUS_ADDRESS"):
        log("DBUS_SYSTEM_BUS_ADDRESS is not set; refusing to claim org.bluez on the real system bus. "
            "Start a private bus with Tests/Fixtures/bluez/private-system-bus.conf (see docs/ble-testing.md).")
        return 2
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SystemBus()
    mock = Mock(args, bus)
    if bus.request_name("org.bluez", dbus.bus.NAME_FLAG_DO_NOT_QUEUE) != dbus.bus.REQUEST_NAME_REPLY_PRIMARY_OWNER:
        log("org.bluez is already owned on %s" % os.environ["DBUS_SYSTEM_BUS_ADDRESS"])
        return 1
    loop = GLib.MainLoop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        GLib.unix_signal_add(GLib.PRIORITY_HIGH, signum, lambda: loop.quit() or False)
    print("READY", flush=True)
    loop.run()
    mock.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
