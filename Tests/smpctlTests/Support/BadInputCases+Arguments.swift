/// Cases about what is typed: connection strings, numbers, JSON payloads.
enum BadInputArgumentCases {
    static var all: [BadInputCase] { connection + numbers + json }

    static var connection: [BadInputCase] {
        let echo = ["os", "echo", "hi"]
        func bad(_ title: String, _ string: String, expect: Set<Int32> = .usage) -> BadInputCase {
            BadInputCase(.connection, title, ["-c", string] + echo, expect: expect)
        }
        return [
            BadInputCase(.connection, "no connection string at all", echo, expect: .usage),
            bad("empty string", ""),
            bad("unknown transport", "tcp:x"),
            bad("URL of another scheme", "http://device"),
            bad("no transport name", ":1337"),
            bad("no colon", "udp"),
            bad("empty UDP target", "udp:"),
            bad("port 99999", "udp:127.0.0.1:99999"),
            bad("port 0", "udp:127.0.0.1:0"),
            bad("negative port", "udp:127.0.0.1:-1"),
            bad("non-numeric port", "udp:127.0.0.1:abc"),
            bad("empty port", "udp:127.0.0.1:"),
            bad("unclosed IPv6 bracket", "udp:[::1"),
            bad("text after IPv6 bracket", "udp:[::1]x"),
            bad("bad host characters", "udp:dev!ce"),
            bad("IPv4 octet 256 (read as a host name)", "udp:256.1.1.1", expect: .transport),
            bad("unknown host", "udp:no-such-host.invalid", expect: .transport),
            bad("option without value", "udp:127.0.0.1:1?timeout"),
            bad("non-numeric timeout option", "udp:127.0.0.1:1?timeout=abc"),
            bad("timeout option too large", "udp:127.0.0.1:1?timeout=99999"),
            bad("retries option 11", "udp:127.0.0.1:1?retries=11"),
            bad("MTU option 22", "udp:127.0.0.1:1?mtu=22"),
            bad("serial option on UDP", "udp:127.0.0.1:1?baud=115200"),
            bad("repeated option", "udp:127.0.0.1:1?timeout=1&timeout=2"),
            bad("unknown option", "udp:127.0.0.1:1?colour=blue"),
            bad("empty option list (accepted; nothing listens on port 1)", "udp:127.0.0.1:1?", expect: .transport),
            bad("empty serial target", "serial:"),
            bad("bad USB vendor ID", "serial:usb=zzzz:0100"),
            bad("non-numeric baud", "serial:/dev/ttyACM0?baud=abc"),
            bad("line length 5", "serial:/dev/ttyACM0?line=5"),
            bad("unknown framing", "serial:/dev/ttyACM0?framing=nope"),
            bad("non-numeric touch baud rate", "serial:/dev/ttyACM0?touch=yes"),
            bad("touch baud rate 0", "serial:/dev/ttyACM0?touch=0"),
            bad("touch option on UDP", "udp:127.0.0.1:1?touch=1200"),
            bad("DTLS credentials without dtls=1", "udp:127.0.0.1:1?psk-id=a&psk-file=k.hex"),
            bad("dtls=1 without credentials", "udp:127.0.0.1:1?dtls=1"),
            bad("PSK identity without its key", "udp:127.0.0.1:1?dtls=1&psk-id=a"),
            bad("PSK given twice", "udp:127.0.0.1:1?dtls=1&psk-id=a&psk=00112233&psk-file=k.hex"),
            bad("PSK not hex (never quoted)", "udp:127.0.0.1:1?dtls=1&psk-id=a&psk=secretzz"),
            bad("PSK and certificate credentials", "udp:127.0.0.1:1?dtls=1&psk-id=a&psk-file=k.hex&ca=ca.pem"),
            bad("client certificate without its key", "udp:127.0.0.1:1?dtls=1&ca=ca.pem&cert=c.pem"),
            bad("ca= with verify=0", "udp:127.0.0.1:1?dtls=1&ca=ca.pem&verify=0"),
            bad("DTLS option on serial", "serial:/dev/ttyACM0?dtls=1"),
            BadInputCase(
                .connection, "PSK saved in a profile", ["profile", "add", "lab", "-c", "udp:127.0.0.1?dtls=1&psk-id=a&psk=00112233"],
                environment: ["SMPCTL_CONFIG": "$TMP/dtls-profile.yaml"], expect: .usage),
            bad("serial over TCP without port", "serial:tcp://127.0.0.1"),
            bad("empty BLE target", "ble:"),
            bad("bad BLE address", "ble:ZZ:BB:CC:DD:EE:FF"),
            bad("empty BLE name", "ble:name="),
            bad("BLE passkey of five digits", "ble:C0:FF:EE:00:00:01?passkey=12345"),
            bad("BLE passkey with a letter", "ble:C0:FF:EE:00:00:01?passkey=12345a"),
            bad("BLE confirm not 0 or 1", "ble:C0:FF:EE:00:00:01?confirm=maybe"),
            BadInputCase(.connection, "ble pair --passkey of seven digits", ["ble", "pair", "C0:FF:EE:00:00:01", "--passkey", "1234567"], expect: .usage),
            BadInputCase(.connection, "ble pair of a UDP device", ["ble", "pair", "udp:127.0.0.1:1"], expect: .usage),
            BadInputCase(.connection, "ble unpair of a name", ["ble", "unpair", "name=Zephyr"], expect: .usage),
            bad("trailing newline (trimmed; nothing listens on port 1)", "udp:127.0.0.1:1\n", expect: .transport),
            bad("newline inside the host", "udp:127.0.\n0.1"),
            bad("10 KB host name", "udp:" + String(repeating: "a", count: 10_000)),
            bad("64-character label in a host name", "udp:" + String(repeating: "a", count: 64) + ".example"),
            BadInputCase(.connection, "bad SMPCTL_CONNECTION", echo, environment: ["SMPCTL_CONNECTION": "tcp:x"], expect: .usage),
        ]
    }

    static var numbers: [BadInputCase] {
        let echo = ["os", "echo", "hi"]
        func option(_ title: String, _ arguments: [String], device: BadInputDevice? = .plain, expect: Set<Int32> = .usage) -> BadInputCase {
            BadInputCase(.numbers, title, arguments, device: device, expect: expect)
        }
        return [
            option("timeout 0", echo + ["--timeout", "0"]),
            option("negative timeout", echo + ["--timeout", "-1"]),
            option("non-numeric timeout", echo + ["--timeout", "abc"]),
            option("timeout NaN", echo + ["--timeout", "nan"]),
            option("timeout infinity", echo + ["--timeout", "inf"]),
            option("timeout 1e309", echo + ["--timeout", "1e309"]),
            option("timeout 3601 s", echo + ["--timeout", "3601"]),
            option("negative retries", echo + ["--retries", "-1"]),
            option("retries 11", echo + ["--retries", "11"]),
            option("fractional retries", echo + ["--retries", "1.5"]),
            option("retries beyond Int64", echo + ["--retries", "99999999999999999999"]),
            option("negative image number", ["image", "upload", "$TMP/good.bin", "--image", "-1"]),
            option("image number 2^64", ["image", "upload", "$TMP/good.bin", "--image", "18446744073709551616"]),
            option("image number 7 (no such image)", ["image", "upload", "$TMP/good.bin", "--image", "7"], expect: .device),
            option("window 0", ["image", "upload", "$TMP/good.bin", "--window", "0"]),
            option("window 65", ["image", "upload", "$TMP/good.bin", "--window", "65"]),
            option("alignment 0", ["image", "upload", "$TMP/good.bin", "--align", "0"]),
            option("alignment 4097", ["image", "upload", "$TMP/good.bin", "--align", "4097"]),
            option("negative slot", ["image", "erase", "--slot", "-1"]),
            option("slot 99", ["image", "erase", "--yes", "--slot", "99"], expect: .device),
            option("hash length 0", ["fs", "hash", "/lfs1/hello.txt", "--length", "0"]),
            option("negative hash offset", ["fs", "hash", "/lfs1/hello.txt", "--offset", "-5"]),
            option("hash offset past the end", ["fs", "hash", "/lfs1/hello.txt", "--offset", "999999"], expect: .device),
            option("fs window 0", ["fs", "get", "/lfs1/hello.txt", "$TMP/out.txt", "--window", "0"]),
            option("raw command 256", ["raw", "--group", "os", "--command", "256", "--op", "read"]),
            option("raw command -1", ["raw", "--group", "os", "--command", "-1", "--op", "read"]),
            option("raw unknown group name", ["raw", "--group", "nosuch", "--command", "0", "--op", "read"]),
            option("raw group 70000", ["raw", "--group", "70000", "--command", "0", "--op", "read"]),
            option("date 'yesterday'", ["os", "datetime", "--set", "yesterday"], expect: .data),
            option("date with month 13", ["os", "datetime", "--set", "2024-13-45T99:99:99"], expect: .data),
            option("boot mode 2^40", ["os", "reset", "--boot-mode", "1099511627776"], expect: .usageOrData),
            option("simulate drop 2", ["simulate", "--drop", "2"], device: nil),
            option("simulate port 70000", ["simulate", "--udp", "127.0.0.1:70000"], device: nil),
            option("simulate slot size 0", ["simulate", "--slot-size", "0"], device: nil),
            option("simulate 9 images", ["simulate", "--images", "9"], device: nil),
            option("simulate buffer size 1", ["simulate", "--buf-size", "1"], device: nil),
            option("echo of 100 KB (larger than the device's buffer)", ["os", "echo", String(repeating: "x", count: 100_000)], expect: .usageOrData),
        ]
    }

    static var json: [BadInputCase] {
        func raw(_ title: String, _ payload: String) -> BadInputCase {
            BadInputCase(.json, title, ["raw", "--group", "os", "--command", "0", "--op", "write", "--payload-json", payload], device: .plain, expect: .usageOrData)
        }
        return [
            raw("empty document", ""),
            raw("unclosed object", "{"),
            raw("array, not object", "[]"),
            raw("number, not object", "1"),
            raw("string, not object", "\"x\""),
            raw("null", "null"),
            raw("missing value", "{\"d\":}"),
            raw("trailing comma", "{\"d\":1,}"),
            raw("garbage after the object", "{\"d\":\"x\"} junk"),
            raw("two objects", "{} {}"),
            raw("NaN literal", "{\"d\":NaN}"),
            raw("number 1e999", "{\"d\":1e999}"),
            raw("integer 2^64", "{\"d\":18446744073709551616}"),
            raw("number with a plus sign", "{\"d\":+1}"),
            raw("number with a leading zero", "{\"d\":01}"),
            raw("number without an integer part", "{\"d\":.5}"),
            raw("number ending in a point", "{\"d\":1.}"),
            raw("lone minus sign", "{\"d\":-}"),
            raw("integer below Int64", "{\"d\":-9223372036854775809}"),
            raw("10000 nested arrays", "{\"d\":" + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "}"),
            raw("lone surrogate escape", "{\"d\":\"\\ud800\"}"),
            raw("bad escape", "{\"d\":\"\\q\"}"),
            raw("control character in string", "{\"d\":\"a\u{1}b\"}"),
            raw("single quotes", "{'d':'x'}"),
            raw("duplicate keys", "{\"d\":\"a\",\"d\":\"b\"}"),
            raw("payload larger than the device's buffer", "{\"d\":\"" + String(repeating: "x", count: 70_000) + "\"}"),
            BadInputCase(.json, "both --payload-json and --cbor", ["raw", "--group", "os", "--command", "0", "--op", "write", "--payload-json", "{}", "--cbor", "a0"],
                device: .plain, expect: .usageOrData),
            BadInputCase(.json, "CBOR not hex", ["raw", "--group", "os", "--command", "0", "--op", "write", "--cbor", "zz"], device: .plain, expect: .usageOrData),
            BadInputCase(.json, "CBOR not a map", ["raw", "--group", "os", "--command", "0", "--op", "write", "--cbor", "80"], device: .plain, expect: .usageOrData),
            BadInputCase(.json, "CBOR cut short", ["raw", "--group", "os", "--command", "0", "--op", "write", "--cbor", "a1"], device: .plain, expect: .usageOrData),
        ]
    }
}
