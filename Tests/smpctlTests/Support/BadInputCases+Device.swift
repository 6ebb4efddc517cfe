import Foundation

/// Cases about the device: errors it answers with, devices that are gone, and faults on the link.
enum BadInputDeviceCases {
    static var all: [BadInputCase] { errors + faults }

    /// The files of the `plain` device (and every other device with a file system).
    static let remoteFiles: [String: [UInt8]] = [
        "/lfs1/hello.txt": FileSystemTestFolder.content(2000),
        "/lfs1/big.txt": FileSystemTestFolder.content(100_000, seed: 0xB16),
    ]

    static var errors: [BadInputCase] {
        func answer(_ title: String, _ arguments: [String], device: BadInputDevice = .plain, expect: Set<Int32> = .device) -> BadInputCase {
            BadInputCase(.device, title, arguments, device: device, expect: expect)
        }
        let zeroHash = String(repeating: "0", count: 64)
        let quick = ["--timeout", "0.5", "--retries", "0"]
        return [
            answer("reset refused by the application", ["os", "reset"], device: .refuseReset),
            answer("erase of the running slot", ["image", "erase", "--yes", "--slot", "0"]),
            answer("test of an unknown image hash", ["image", "test", zeroHash]),
            answer("confirm of an unknown image hash", ["image", "confirm", String(repeating: "1", count: 64)]),
            answer("image hash not hex", ["image", "test", "zz"], expect: .usageOrData),
            answer("get of a missing file", ["fs", "get", "/lfs1/nope.txt", "$TMP/nope-out.txt"]),
            answer("get of a directory", ["fs", "get", "/lfs1/dir", "$TMP/dir-out.txt"]),
            answer("stat of a missing file", ["fs", "stat", "/lfs1/nope.txt"]),
            answer("hash of a missing file", ["fs", "hash", "/lfs1/nope.txt"]),
            answer("unknown hash type", ["fs", "hash", "/lfs1/hello.txt", "--type", "md5"]),
            answer("put into a missing directory", ["fs", "put", "$TMP/local.txt", "/nodir/x.txt"]),
            answer("put onto a directory", ["fs", "put", "$TMP/local.txt", "/lfs1/dir"], expect: [0, 2]),
            answer("relative remote path", ["fs", "stat", "hello.txt"], expect: [2, 64]),
            answer("unknown setting", ["settings", "read", "no/such/key"]),
            answer("unknown statistics group", ["stat", "show", "nosuch"]),
            answer("log group on a Zephyr device", ["log", "show"]),
            answer("memory pools on a Zephyr device", ["os", "mpstat"]),
            answer("crash group on a Zephyr device", ["crash", "test", "div0", "-y"]),
            answer("unknown group", ["raw", "--group", "99", "--command", "0", "--op", "read"]),
            BadInputCase(.device, "unknown shell command (exit status: its return code, -8 → 248)", ["shell", "exec", "--", "nosuchcmd"],
                device: .plain, expect: [248], passesDeviceStatusThrough: true),
            answer("enumeration index past the end", ["enum", "single", "999"]),
            answer("SUIT on a device without SUIT", ["suit", "manifests"]),
            answer("image list without an image group", ["image", "list"], device: .bare),
            answer("file system without a file system group", ["fs", "stat", "/lfs1/hello.txt"], device: .bare),
            answer("upgrade without an image group", ["upgrade", "$TMP/good.bin"], device: .bare),
            answer("clock not set", ["os", "datetime"], device: .unsetClock),
            answer("device killed before the command (echo)", ["os", "echo", "hi"] + quick, device: .killed, expect: .transport),
            answer("device killed before the command (upload)", ["image", "upload", "$TMP/good.bin"] + quick, device: .killed, expect: .transport),
            answer("device switched off (echo)", ["os", "echo", "hi"] + quick, device: .silent, expect: .timeout),
            BadInputCase(.device, "device switched off (upload: the first chunk waits 30 s for the erase)", ["image", "upload", "$TMP/good.bin"] + quick,
                device: .silent, expect: .timeout, timeout: 50),
            answer("device switched off (reset)", ["os", "reset"] + quick, device: .silent, expect: .timeout),
            BadInputCase(.device, "device killed during an upload", ["image", "upload", "$TMP/big.bin", "--window", "1", "--timeout", "1", "--retries", "1"],
                device: .killedMidway, expect: [69, 75], outcomeVaries: true),
            BadInputCase(.device, "device killed during a download", ["fs", "get", "/lfs1/big.txt", "$TMP/killed.txt", "--timeout", "1", "--retries", "1"],
                device: .killedMidway, expect: [69, 75], outcomeVaries: true,
                afterwards: { folder in
                    FileManager.default.fileExists(atPath: folder + "/killed.txt") ? "an incomplete download was left as LOCAL" : nil
                }),
        ]
    }

    static var faults: [BadInputCase] {
        func fault(
            _ title: String, _ arguments: [String], _ device: BadInputDevice, expect: Set<Int32>,
            afterwards: (@Sendable (String) -> String?)? = nil
        ) -> BadInputCase {
            BadInputCase(.faults, title, arguments, device: device, expect: expect, outcomeVaries: expect.count > 1, afterwards: afterwards)
        }
        let quick = ["--timeout", "0.5", "--retries", "1"]
        /// The download is the device's file, byte for byte.
        func intact(_ name: String, _ remote: String) -> @Sendable (String) -> String? {
            let expected = remoteFiles[remote].map { Data($0) }
            return { folder in
                guard let local = FileManager.default.contents(atPath: folder + "/" + name) else { return nil }
                return local == expected ? nil : "\(name) differs from the device's \(remote)"
            }
        }
        return [
            fault("every response dropped: echo", ["os", "echo", "hi"] + quick, .dropAll, expect: .timeout),
            fault("every response dropped: image list", ["image", "list"] + quick, .dropAll, expect: .timeout),
            fault("every response dropped: download", ["fs", "get", "/lfs1/hello.txt", "$TMP/drop-all.txt"] + quick, .dropAll, expect: .timeout,
                afterwards: intact("drop-all.txt", "/lfs1/hello.txt")),
            BadInputCase(.faults, "every response dropped: upload (the first chunk waits 30 s)", ["image", "upload", "$TMP/good.bin", "--timeout", "0.5", "--retries", "0"],
                device: .dropAll, expect: .timeout, timeout: 50),
            fault("every response dropped: reset (never retried)", ["os", "reset"] + quick, .dropAll, expect: .timeout),
            fault("every response corrupted: echo", ["os", "echo", "hi"] + quick, .corruptAll, expect: .timeoutOrProtocol),
            fault("every response corrupted: image list", ["image", "list"] + quick, .corruptAll, expect: .timeoutOrProtocol),
            BadInputCase(.faults, "every response corrupted: upload (the first chunk waits 30 s)", ["image", "upload", "$TMP/good.bin", "--timeout", "0.5", "--retries", "0"],
                device: .corruptAll, expect: .timeoutOrProtocol, timeout: 50),
            fault("every request answered busy: echo", ["os", "echo", "hi"] + quick, .busyAll, expect: [2, 75]),
            fault("every request answered busy: upload", ["image", "upload", "$TMP/good.bin"] + quick, .busyAll, expect: [2, 75]),
            fault("every response 2 s late, timeout 0.5 s", ["os", "echo", "hi", "--timeout", "0.5", "--retries", "0"], .delayAll, expect: .timeout),
            fault("every response 2 s late, timeout 5 s", ["os", "echo", "hi", "--timeout", "5"], .delayAll, expect: .success),
            fault("every response twice: echo", ["os", "echo", "hi"], .duplicateAll, expect: .success),
            fault("every response twice: upload", ["image", "upload", "$TMP/good.bin"], .duplicateAll, expect: .success),
            fault("every response twice: download", ["fs", "get", "/lfs1/big.txt", "$TMP/dup.txt"], .duplicateAll, expect: .success,
                afterwards: intact("dup.txt", "/lfs1/big.txt")),
            fault("every response held back: echo", ["os", "echo", "hi"] + quick, .reorderAll, expect: [0, 75]),
            fault("every response held back: download", ["fs", "get", "/lfs1/big.txt", "$TMP/reorder.txt"] + quick, .reorderAll, expect: [0, 75],
                afterwards: intact("reorder.txt", "/lfs1/big.txt")),
            fault("a third of responses dropped: download", ["fs", "get", "/lfs1/big.txt", "$TMP/drop-third.txt", "--timeout", "0.5", "--retries", "5"],
                .dropThird, expect: [0, 75], afterwards: intact("drop-third.txt", "/lfs1/big.txt")),
            fault("a third of responses dropped: upload", ["image", "upload", "$TMP/big.bin", "--timeout", "0.5", "--retries", "5"],
                .dropThird, expect: [0, 75]),
            fault("a third of responses corrupted: download", ["fs", "get", "/lfs1/big.txt", "$TMP/corrupt-third.txt", "--timeout", "0.5", "--retries", "5"],
                .corruptThird, expect: [0, 75], afterwards: intact("corrupt-third.txt", "/lfs1/big.txt")),
            fault("a third of responses corrupted: statistics", ["stat", "all", "--timeout", "0.5", "--retries", "5"], .corruptThird, expect: [0, 75]),
        ]
    }
}
