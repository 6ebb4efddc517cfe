#!/usr/bin/python3
"""Calls one org.bluez.mock.Control1 hook of mock_bluez.py.

Usage: control.py BUS_ADDRESS METHOD [ARG...]
  FailNext METHOD ERROR_SUFFIX MESSAGE | DropLink | SetMTU N | SetResponder bridge|silent | Notify HEX | GetStats
GetStats prints one `key=value` line per counter. Errors go to stderr with exit status 1.
"""

import sys

import dbus

SIGNATURES = {"FailNext": "sss", "DropLink": "", "SetMTU": "q", "SetResponder": "s", "Notify": "ay", "GetStats": ""}


def convert(code, text):
    if code == "q":
        return dbus.UInt16(int(text))
    if code == "ay":
        return dbus.ByteArray(bytes.fromhex(text))
    return dbus.String(text)


def main(argv):
    if len(argv) < 2 or argv[1] not in SIGNATURES:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    address, method, texts = argv[0], argv[1], argv[2:]
    codes = ["ay"] if SIGNATURES[method] == "ay" else list(SIGNATURES[method])
    if len(texts) != len(codes):
        print("control.py: %s takes %d argument(s), got %d" % (method, len(codes), len(texts)), file=sys.stderr)
        return 2
    try:
        bus = dbus.bus.BusConnection(address)
        control = dbus.Interface(bus.get_object("org.bluez", "/org/bluez/mock"), "org.bluez.mock.Control1")
        result = getattr(control, method)(*[convert(code, text) for code, text in zip(codes, texts)], timeout=10)
    except (dbus.DBusException, ValueError) as failure:
        print("control.py: %s failed: %s" % (method, failure), file=sys.stderr)
        return 1
    if method == "GetStats":
        for key in sorted(result):
            print("%s=%d" % (key, int(result[key])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
