import Foundation

/// Cases about the local machine: serial ports, files, standard streams.
enum BadInputLocalCases {
    static var all: [BadInputCase] { ports + files + pipes + manyDevices }

    /// Many-device runs: what they read and write is checked before any device is asked anything
    /// (ports 1 and 2 of 127.0.0.1 have no device: nothing may be sent).
    static var manyDevices: [BadInputCase] {
        let rack = ["-c", "udp:127.0.0.1:1-2"]
        let unchanged: @Sendable (String) -> String? = { folder in
            (try? Data(contentsOf: URL(fileURLWithPath: folder + "/local.txt"))) == Data(repeating: 0x61, count: 3000) ? nil : "local.txt was changed"
        }
        func many(_ title: String, _ arguments: [String], streams: BadInputCase.Streams = .pipes, expect: Set<Int32> = .usage,
                  afterwards: (@Sendable (String) -> String?)? = nil) -> BadInputCase {
            BadInputCase(.manyDevices, title, arguments, streams: streams, expect: expect, afterwards: afterwards)
        }
        return [
            many("--report names the file being uploaded", ["fs", "put", "$TMP/local.txt", "/lfs1/l.txt"] + rack + ["--report", "$TMP/local.txt"], afterwards: unchanged),
            many("--report is a hard link to the file being uploaded", ["fs", "put", "$TMP/local.txt", "/lfs1/l.txt"] + rack + ["--report", "$TMP/local-hardlink.txt"], afterwards: unchanged),
            many("--report names the targets file", ["os", "echo", "hi", "--targets", "$TMP/shelf-a.txt", "--report", "$TMP/shelf-a.txt"]),
            many("--report is a folder", ["os", "echo", "hi"] + rack + ["--report", "$TMP/dir"]),
            many("--report is a dangling link", ["os", "echo", "hi"] + rack + ["--report", "$TMP/dangling"]),
            many("--report in a missing folder", ["os", "echo", "hi"] + rack + ["--report", "$TMP/nope/r.json"]),
            many("--report under a file", ["os", "echo", "hi"] + rack + ["--report", "$TMP/local.txt/r.json"], afterwards: unchanged),
            many("one report file given twice", ["os", "echo", "hi"] + rack + ["--report", "$TMP/r.json", "--report", "$TMP/./r.json"]),
            many("--targets - twice", ["os", "echo", "hi", "--targets", "-", "--targets", "-"], streams: .input("udp:127.0.0.1:1\n")),
            many("one label in two targets files", ["os", "echo", "hi", "--targets", "$TMP/shelf-a.txt", "--targets", "$TMP/shelf-b.txt"], expect: .data),
            many("one device under two spellings", ["os", "echo", "hi", "-c", "udp:127.0.0.1:1,localhost:1"]),
            many("fs get LOCAL without {name}", ["fs", "get", "/lfs1/log.txt", "$TMP/out.txt"] + rack),
        ]
    }


    static var ports: [BadInputCase] {
        func port(_ title: String, _ path: String, expect: Set<Int32> = .transport, timeout: TimeInterval = 30) -> BadInputCase {
            BadInputCase(.ports, title, ["-c", "serial:" + path, "os", "echo", "hi", "--timeout", "1"], expect: expect, timeout: timeout)
        }
        return [
            port("missing port", "/dev/ttyNOPE0"),
            port("missing port in a missing folder", "/dev/serial/by-id/usb-nothing"),
            port("regular file, not a tty", "$TMP/local.txt"),
            port("empty file, not a tty", "$TMP/empty.txt"),
            port("directory", "$TMP/dir"),
            port("character device that is not a tty (null)", "$TMP/chardev"),
            port("/dev/zero, not a tty", "/dev/zero"),
            port("FIFO", "$TMP/port-fifo", timeout: 15),
            port("symbolic link loop", "$TMP/loop"),
            port("dangling symbolic link", "$TMP/dangling"),
            port("relative path", "ttyACM0", expect: .usage),
            port("controlling terminal when there is none", "/dev/tty"),
            port("serial over TCP, nothing listening", "tcp://127.0.0.1:1"),
            port("RFC 2217 server, nothing listening", "rfc2217://127.0.0.1:1"),
        ]
    }

    static var files: [BadInputCase] {
        func info(_ title: String, _ file: String, expect: Set<Int32> = .data, timeout: TimeInterval = 30) -> BadInputCase {
            BadInputCase(.files, title, ["image", "info", file], expect: expect, timeout: timeout)
        }
        func upload(_ title: String, _ file: String, expect: Set<Int32> = .data, timeout: TimeInterval = 30) -> BadInputCase {
            BadInputCase(.files, title, ["image", "upload", file], device: .plain, expect: expect, timeout: timeout)
        }
        func package(_ title: String, _ file: String, expect: Set<Int32> = .data, timeout: TimeInterval = 30) -> BadInputCase {
            BadInputCase(.files, title, ["package", "info", file], expect: expect, timeout: timeout)
        }
        func upgrade(_ title: String, _ file: String, expect: Set<Int32> = .data) -> BadInputCase {
            BadInputCase(.files, title, ["upgrade", file], device: .plain, expect: expect)
        }
        let imageInfo = [
            info("missing file", "$TMP/nope.bin"),
            info("directory", "$TMP/dir"),
            info("empty file", "$TMP/empty.bin"),
            info("10 bytes", "$TMP/tiny.bin"),
            info("header only", "$TMP/header-only.bin"),
            info("body cut short", "$TMP/body-cut.bin"),
            info("TLV area cut short", "$TMP/tlv-cut.bin"),
            info("no TLV area", "$TMP/no-tlvs.bin"),
            info("bad magic", "$TMP/bad-magic.bin"),
            info("legacy v1 magic", "$TMP/legacy-magic.bin"),
            info("header size 8", "$TMP/header-size-8.bin"),
            info("body size 2 GiB in a 700-byte file", "$TMP/body-size-2g.bin"),
            info("hash mismatch", "$TMP/hash-mismatch.bin"),
            info("RAM-load image signed for another address than its code", "$TMP/ram-load-elsewhere.bin"),
            info("bad TLV area magic", "$TMP/tlv-bad-magic.bin"),
            info("TLV area size 64 KiB", "$TMP/tlv-size-64k.bin"),
            info("4 KiB of zeros", "$TMP/zeros.bin"),
            info("text file", "$TMP/text.bin"),
            info("symbolic link loop", "$TMP/loop"),
            info("/dev/null", "/dev/null"),
            info("FIFO with no writer", "$TMP/fifo", timeout: 10),
            info("1 GiB sparse file (zeros)", "$TMP/sparse-1g.bin"),
            info("Intel HEX: a bad checksum", "$TMP/hex-bad-checksum.hex"),
            info("Intel HEX: no end-of-file record", "$TMP/hex-no-eof.hex"),
            info("Intel HEX: a record after the end of file", "$TMP/hex-after-eof.hex"),
            info("Intel HEX: record type 06", "$TMP/hex-type-06.hex"),
            info("Intel HEX: a record given twice", "$TMP/hex-overlap.hex"),
            info("Intel HEX: a space after a record", "$TMP/hex-space.hex"),
            info("Intel HEX: a record cut short", "$TMP/hex-cut-line.hex"),
            info("Intel HEX: data past 4 GiB", "$TMP/hex-past-4g.hex"),
            info("Intel HEX: data that is not an image", "$TMP/hex-not-an-image.hex"),
            info("Intel HEX: two ranges (like merged.hex)", "$TMP/hex-two-ranges.hex"),
        ]
        let imageUpload = [
            upload("missing file", "$TMP/nope.bin"),
            upload("directory", "$TMP/dir"),
            upload("empty file", "$TMP/empty.bin"),
            upload("bad magic", "$TMP/bad-magic.bin"),
            upload("truncated image", "$TMP/tlv-cut.bin"),
            upload("hash mismatch", "$TMP/hash-mismatch.bin"),
            upload("RAM-load image signed for another address than its code", "$TMP/ram-load-elsewhere.bin"),
            upload("FIFO with no writer", "$TMP/fifo", timeout: 10),
            upload("Intel HEX with a bad checksum", "$TMP/hex-bad-checksum.hex"),
            upload("Intel HEX with two ranges (like merged.hex)", "$TMP/hex-two-ranges.hex"),
        ]
        let packages = [
            package("missing package", "$TMP/nope.zip"),
            package("zip cut in half", "$TMP/cut.zip"),
            package("entry named ../evil.bin", "$TMP/traversal.zip"),
            package("entry named /tmp/evil.bin", "$TMP/absolute.zip"),
            package("entry named ..\\evil.bin", "$TMP/backslash.zip"),
            package("manifest names ../app.bin", "$TMP/manifest-traversal.zip"),
            package("no manifest.json", "$TMP/no-manifest.zip"),
            package("manifest.json not JSON", "$TMP/bad-manifest.zip"),
            package("manifest with no files", "$TMP/empty-manifest.zip"),
            package("manifest names a missing file", "$TMP/missing-file.zip"),
            package("image that is text", "$TMP/not-an-image.zip"),
            package("two entries with one name", "$TMP/duplicate.zip"),
            package("zip inside a zip", "$TMP/nested.zip"),
            package("only an end record", "$TMP/eocd-only.zip"),
            package("entry offset past the end (fuzzer find)", "$TMP/offset-past-end.zip"),
            package("bomb: 200 MB of zeros", "$TMP/bomb.zip"),
            package("bomb declaring 1000 bytes", "$TMP/lying-bomb.zip"),
            package("3000 entries", "$TMP/many-entries.zip"),
            package("4 GiB sparse file starting like a zip", "$TMP/sparse-4g.zip"),
            package("FIFO with no writer", "$TMP/fifo", timeout: 5),
            package("SUIT envelope with a trailing byte", "$TMP/trailing.suit"),
            package("SUIT envelope cut short", "$TMP/cut.suit"),
            package("SUIT tag around an array", "$TMP/not-a-map.suit"),
            package("Nordic DFU: an init packet that is not protobuf", "$TMP/nordic-garbage-dat.zip"),
            package("Nordic DFU: an init packet cut short", "$TMP/nordic-cut-dat.zip"),
            package("Nordic DFU: an image that does not match its init packet's hash", "$TMP/nordic-other-image.zip"),
            package("Nordic DFU: the manifest names a missing .dat", "$TMP/nordic-no-dat.zip"),
            package("Nordic DFU: the manifest names ../app.bin", "$TMP/nordic-traversal.zip"),
        ]
        let upgrades = [
            upgrade("upgrade with a truncated image", "$TMP/tlv-cut.bin"),
            upgrade("upgrade with a hash mismatch", "$TMP/hash-mismatch.bin"),
            upgrade("upgrade with a RAM-load image signed for another address than its code", "$TMP/ram-load-elsewhere.bin"),
            upgrade("upgrade with a traversal zip", "$TMP/traversal.zip"),
            upgrade("upgrade with a zip bomb", "$TMP/bomb.zip"),
            upgrade("upgrade with a directory", "$TMP/dir"),
            upgrade("upgrade with an Intel HEX of two ranges", "$TMP/hex-two-ranges.hex"),
            upgrade("upgrade with an Intel HEX without end record", "$TMP/hex-no-eof.hex"),
            upgrade("upgrade with a Nordic DFU package whose image does not match its hash", "$TMP/nordic-other-image.zip"),
            upgrade("upgrade with a legacy Nordic DFU package, over UDP", "$TMP/nordic-legacy-0.5.zip", expect: .transport),
            upgrade("upgrade with a Nordic Secure DFU package, over UDP", "$TMP/nordic-secure-signed.zip", expect: .transport),
            BadInputCase(.files, "upgrade with a Nordic Secure DFU package and --erase-settings", ["upgrade", "$TMP/nordic-secure-signed.zip", "--erase-settings"],
                device: .plain, expect: .usage),
            BadInputCase(.files, "upgrade --bare with a Nordic DFU package", ["upgrade", "$TMP/nordic-secure-signed.zip", "--bare"], device: .plain, expect: .usage),
            BadInputCase(.files, "upgrade --bare with an empty file", ["upgrade", "$TMP/empty.bin", "--bare"], device: .plain, expect: .data),
            BadInputCase(.files, "upgrade --bare with an Intel HEX of two ranges", ["upgrade", "$TMP/hex-two-ranges.hex", "--bare"], device: .plain, expect: .data),
        ]
        let fileSystem = [
            BadInputCase(.files, "fs put of a missing file", ["fs", "put", "$TMP/nope.txt", "/lfs1/x.txt"], device: .plain, expect: .data),
            BadInputCase(.files, "fs put of a directory", ["fs", "put", "$TMP/dir", "/lfs1/x.txt"], device: .plain, expect: .data),
            BadInputCase(.files, "fs put of a FIFO with no writer", ["fs", "put", "$TMP/fifo", "/lfs1/x.txt"], device: .plain, expect: .data, timeout: 5),
            BadInputCase(.files, "fs get into a missing folder", ["fs", "get", "/lfs1/hello.txt", "$TMP/nodir/x.txt"], device: .plain, expect: .data),
            BadInputCase(.files, "fs get into a character device", ["fs", "get", "/lfs1/hello.txt", "$TMP/chardev"], device: .plain,
                expect: .success,
                afterwards: { folder in
                    BadInputFiles.isCharacterDeviceOrLink(folder + "/chardev") ? nil : "the character device was replaced"
                }),
            BadInputCase(.files, "fs get with a link planted at LOCAL.part", ["fs", "get", "/lfs1/hello.txt", "$TMP/dl.txt"], device: .plain,
                expect: [0, 65],
                afterwards: { folder in
                    let victim = FileManager.default.contents(atPath: folder + "/victim.txt")
                    return victim == Data("precious\n".utf8) ? nil : "the file the link points at was overwritten"
                }),
        ]
        // The config file is read by every device command, -c or not, and locked by every change.
        let configFiles = [
            BadInputCase(
                .files, "config file over 4 MiB", ["os", "echo", "hi"], device: .plain, environment: ["SMPCTL_CONFIG": "$TMP/huge-config.yaml"],
                expect: .data),
            BadInputCase(
                .files, "config file whose lock file is a folder", ["profile", "add", "lab", "-c", "udp:127.0.0.1"],
                environment: ["SMPCTL_CONFIG": "$TMP/locked-config.yaml"], expect: .output),
        ]
        return imageInfo + imageUpload + packages + upgrades + fileSystem + configFiles
    }

    static var pipes: [BadInputCase] {
        func pipe(
            _ title: String, _ arguments: [String], _ streams: BadInputCase.Streams, device: BadInputDevice? = .plain,
            expect: Set<Int32>
        ) -> BadInputCase {
            // Whether a pipe closed early is noticed depends on how much was written before it closed.
            BadInputCase(.pipes, title, arguments, device: device, streams: streams, expect: expect, outcomeVaries: expect.count > 1)
        }
        let failedOutput = Set<Int32>.output
        // The command finishes; whether the reader was gone before the last write depends on timing.
        let finishedOrFailed = Set<Int32>.success.union(Set<Int32>.output)
        return [
            pipe("stdout closed", ["os", "info"], .closedStdout, expect: failedOutput),
            pipe("stdout full", ["os", "info"], .fullStdout, expect: failedOutput),
            pipe("JSON to a full stdout", ["image", "list", "--json"], .fullStdout, expect: failedOutput),
            pipe("image info to a closed stdout", ["image", "info", "$TMP/good.bin"], .closedStdout, device: nil, expect: failedOutput),
            pipe("help to a full stdout", ["--help"], .fullStdout, device: nil, expect: failedOutput),
            pipe("stderr closed, bad connection string", ["-c", "tcp:x", "os", "echo"], .closedStderr, device: nil, expect: .usage),
            pipe("stderr full, bad connection string", ["-c", "tcp:x", "os", "echo"], .fullStderr, device: nil, expect: .usage),
            pipe("stderr closed during an upload", ["image", "upload", "$TMP/good.bin"], .closedStderr, expect: finishedOrFailed),
            pipe("stdout read for one line during an upload (JSON)", ["image", "upload", "$TMP/good.bin", "--json"], .head(1), expect: finishedOrFailed),
            pipe("both streams read for 3 lines during an upgrade", ["upgrade", "$TMP/good.bin"], .bothHead(3), expect: finishedOrFailed),
            pipe("file to stdout read for one line", ["fs", "get", "/lfs1/big.txt", "-"], .head(1), expect: finishedOrFailed),
            pipe("statistics read for one line", ["stat", "all"], .head(1), expect: finishedOrFailed),
            pipe("stdin closed", ["os", "echo", "hi"], .closedStdin, expect: .success),
            pipe("stdin at its end for a shell command", ["shell", "exec", "--", "echo", "hi"], .stdinFrom("/dev/null"), expect: .success),
            pipe("stdin at its end for the interactive shell", ["shell"], .stdinFrom("/dev/null"), expect: .success),
            pipe("stdout full with a failing command", ["fs", "stat", "/lfs1/nope"], .fullStdout, expect: .device),
            pipe("stdout closed with --json error document", ["--json", "fs", "stat", "/lfs1/nope"], .closedStdout, expect: .device),
        ]
    }
}
