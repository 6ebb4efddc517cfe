import Foundation
import SMPTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The local files of the bad-input table, made in the case folder (`$TMP`): real imgtool images
/// (the image fuzzer's seeds) and damaged copies, firmware packages good and hostile, SUIT
/// envelopes, FIFOs, links, a device node and sparse files.
enum BadInputFiles {
    /// The folder of committed seeds under Tests/Scripts.
    private static func seed(_ relativePath: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: ExternalTool.script(relativePath))))
    }

    /// Makes every file in `folder`.
    static func make(in folder: String) throws {
        func write(_ name: String, _ bytes: [UInt8]) throws {
            try Data(bytes).write(to: URL(fileURLWithPath: folder + "/" + name))
        }
        let image = try seed("image/fuzz-seeds/small-signed.bin")
        try makeImages(image, write: write)
        // About 6 KB: long enough to be interrupted or to meet several faults.
        try write("big.bin", try seed("image/fuzz-seeds/unsigned-h400.bin"))
        try makePackages(image, folder: folder, write: write)
        try makeIntelHex(write: write)
        let envelope = try seed("suit/fuzz-seeds/plain-seq4.suit")
        try write("good.suit", envelope)
        try write("trailing.suit", envelope + [0])
        try write("cut.suit", Array(envelope.prefix(envelope.count / 2)))
        try write("not-a-map.suit", [0xD8, 0x6B, 0x80])
        try write("local.txt", Array(repeating: 0x61, count: 3000))
        try write("empty.txt", [])
        try write("victim.txt", Array("precious\n".utf8))
        // Two shelves of a rack that give one label twice (nothing listens on ports 1 and 2).
        try write("shelf-a.txt", Array("bay-1 udp:127.0.0.1:1\n".utf8))
        try write("shelf-b.txt", Array("bay-1 udp:127.0.0.1:2\n".utf8))
        try FileManager.default.createDirectory(atPath: folder + "/dir", withIntermediateDirectories: true)
        try makeSpecialFiles(in: folder)
    }

    /// Intel HEX files: the small signed image as imgtool would write it (at 0xc000) and damaged
    /// copies, line by line, and a two-range file like Zephyr's merged.hex.
    private static func makeIntelHex(write: (String, [UInt8]) throws -> Void) throws {
        let text = String(decoding: try seed("hex/fuzz-seeds/small-signed-0xc000.hex"), as: UTF8.self)
        let lines = text.split(separator: "\n").map(String.init)
        func hex(_ name: String, _ lines: [String]) throws { try write(name, Array(lines.map { $0 + "\n" }.joined().utf8)) }
        var checksum = lines
        checksum[2] = String(checksum[2].dropLast(2)) + (checksum[2].hasSuffix("00") ? "01" : "00")
        try hex("hex-bad-checksum.hex", checksum)
        try hex("hex-no-eof.hex", Array(lines.dropLast()))
        try hex("hex-after-eof.hex", lines + [lines[2]])
        try hex("hex-type-06.hex", [lines[0], ":00000006FA"] + lines.dropFirst())
        try hex("hex-overlap.hex", Array(lines.prefix(4)) + [lines[2]] + lines.dropFirst(4))
        try hex("hex-space.hex", [lines[0], lines[1] + " "] + lines.dropFirst(2))
        try hex("hex-cut-line.hex", [lines[0], String(lines[1].dropLast(6))] + lines.dropFirst(2))
        try hex("hex-past-4g.hex", [":02000004FFFFFC", ":02FFFF000102FD", ":00000001FF"])
        try hex("hex-not-an-image.hex", [":0400000000010203F6", ":00000001FF"])
        try write("hex-two-ranges.hex", try seed("hex/fuzz-seeds/merged-two-ranges.hex"))
    }

    private static func makeImages(_ image: [UInt8], write: (String, [UInt8]) throws -> Void) throws {
        try write("good.bin", image)
        try write("empty.bin", [])
        try write("tiny.bin", Array(image.prefix(10)))
        try write("header-only.bin", Array(image.prefix(32)))
        // small-signed.bin: 0x20-byte header, 512-byte body, then the TLV areas.
        try write("body-cut.bin", Array(image.prefix(0x20 + 100)))
        try write("tlv-cut.bin", Array(image.dropLast(40)))
        try write("no-tlvs.bin", Array(image.prefix(0x20 + 512)))
        var badMagic = image
        badMagic[0] ^= 0xFF
        try write("bad-magic.bin", badMagic)
        var legacy = image
        legacy[0] = 0x3C
        try write("legacy-magic.bin", legacy)
        var smallHeader = image
        smallHeader[8] = 8
        smallHeader[9] = 0
        try write("header-size-8.bin", smallHeader)
        var hugeBody = image
        hugeBody.replaceSubrange(12..<16, with: [0xFF, 0xFF, 0xFF, 0x7F])
        try write("body-size-2g.bin", hugeBody)
        var mismatch = image
        mismatch[0x20 + 7] ^= 0x01
        try write("hash-mismatch.bin", mismatch)
        var tlvMagic = image
        tlvMagic[0x20 + 512] ^= 0xFF
        try write("tlv-bad-magic.bin", tlvMagic)
        var tlvHuge = image
        tlvHuge.replaceSubrange((0x20 + 512 + 2)..<(0x20 + 512 + 4), with: [0xFF, 0xFF])
        try write("tlv-size-64k.bin", tlvHuge)
        try write("zeros.bin", Array(repeating: 0, count: 4096))
        try write("ram-load-elsewhere.bin", RAMLoadTestImage.file(linkedAt: 0x2024_0000, loadAddress: 0x2010_0000))
        try write("text.bin", Array("this is not an image\n".utf8))
    }

    private static func makePackages(_ image: [UInt8], folder: String, write: (String, [UInt8]) throws -> Void) throws {
        let good = try seed("package/fuzz-seeds/dfu_application.zip")
        try write("good.zip", good)
        try write("cut.zip", Array(good.prefix(good.count / 2)))
        func manifest(_ file: String) -> [UInt8] {
            Array(#"{"format-version": 0, "files": [{"type": "application", "file": "\#(file)", "image_index": "0"}]}"#.utf8)
        }
        let zip = PackageTestFiles.zip
        try write("traversal.zip", zip([("manifest.json", manifest("../evil.bin")), ("../evil.bin", image)]))
        try write("absolute.zip", zip([("manifest.json", manifest("/tmp/evil.bin")), ("/tmp/evil.bin", image)]))
        try write("backslash.zip", zip([("manifest.json", manifest("..\\\\evil.bin")), ("..\\evil.bin", image)]))
        try write("manifest-traversal.zip", zip([("manifest.json", manifest("../app.bin")), ("app.bin", image)]))
        try write("no-manifest.zip", zip([("app.bin", image)]))
        try write("bad-manifest.zip", zip([("manifest.json", Array("{".utf8)), ("app.bin", image)]))
        try write("empty-manifest.zip", zip([("manifest.json", Array(#"{"files": []}"#.utf8))]))
        try write("missing-file.zip", zip([("manifest.json", manifest("app.bin"))]))
        try write("not-an-image.zip", zip([("manifest.json", manifest("app.bin")), ("app.bin", Array("text".utf8))]))
        try write("duplicate.zip", zip([("manifest.json", manifest("app.bin")), ("app.bin", image), ("app.bin", image)]))
        try write("nested.zip", zip([("manifest.json", manifest("app.bin")), ("app.bin", good)]))
        try write("eocd-only.zip", [0x50, 0x4B, 0x05, 0x06] + Array(repeating: 0, count: 18))
        try write("offset-past-end.zip", try seed("package/fuzz-regressions/offset-past-end.zip"))
        // Bombs: 200 MB of zeros deflated (declared honestly), the same declaring 1000 bytes, and
        // 3000 entries; made by Python's zipfile, which the test machine has.
        let script = """
            import sys, zipfile, struct
            folder = sys.argv[1]
            manifest = '{"files": [{"type": "application", "file": "app.bin"}]}'
            with zipfile.ZipFile(folder + "/bomb.zip", "w", zipfile.ZIP_DEFLATED) as z:
                z.writestr("manifest.json", manifest)
                with z.open("app.bin", "w", force_zip64=False) as f:
                    block = bytes(1 << 20)
                    for _ in range(200):
                        f.write(block)
            data = bytearray(open(folder + "/bomb.zip", "rb").read())
            for signature, offset in ((b"PK\\x03\\x04", 22), (b"PK\\x01\\x02", 24)):
                start = 0
                while True:
                    start = data.find(signature, start)
                    if start < 0:
                        break
                    name_length = struct.unpack_from("<H", data, start + (26 if signature == b"PK\\x03\\x04" else 28))[0]
                    name_at = start + (30 if signature == b"PK\\x03\\x04" else 46)
                    if bytes(data[name_at:name_at + name_length]) == b"app.bin":
                        struct.pack_into("<I", data, start + offset, 1000)
                    start += 4
            open(folder + "/lying-bomb.zip", "wb").write(data)
            with zipfile.ZipFile(folder + "/many-entries.zip", "w") as z:
                z.writestr("manifest.json", manifest)
                for n in range(3000):
                    z.writestr(f"f{n}.bin", b"")
            """
        let result = try ProcessRunner.run("python3", ["-c", script, folder], timeout: 120)
        guard result.status == 0 else { throw BadInputSetupError("python3 could not make the zip bombs: \(result.stderr)") }
        try makeNordicPackages(folder: folder)
    }

    /// nRF5 SDK Nordic DFU packages: the fuzz seeds (made by the independent encoder) and damaged
    /// copies, rewritten entry by entry with Python's zipfile.
    private static func makeNordicPackages(folder: String) throws {
        let seeds = ExternalTool.script("package/fuzz-seeds")
        let script = """
            import sys, zipfile, shutil
            seeds, folder = sys.argv[1], sys.argv[2]
            for name in ("nordic-secure-signed.zip", "nordic-legacy-0.5.zip"):
                shutil.copy(seeds + "/" + name, folder + "/" + name)
            source = zipfile.ZipFile(seeds + "/nordic-secure-signed.zip")
            entries = {name: source.read(name) for name in source.namelist()}
            def copy(name, changes):
                with zipfile.ZipFile(folder + "/" + name, "w") as z:
                    for entry, data in entries.items():
                        if entry in changes and changes[entry] is None:
                            continue
                        z.writestr(entry, changes.get(entry, data))
            copy("nordic-garbage-dat.zip", {"app.dat": b"\\xff" * 40})
            copy("nordic-cut-dat.zip", {"app.dat": entries["app.dat"][:20]})
            copy("nordic-other-image.zip", {"app.bin": bytes(len(entries["app.bin"]))})
            copy("nordic-no-dat.zip", {"app.dat": None})
            copy("nordic-traversal.zip", {"manifest.json": entries["manifest.json"].replace(b'"app.bin"', b'"../app.bin"')})
            """
        let result = try ProcessRunner.run("python3", ["-c", script, seeds, folder], timeout: 60)
        guard result.status == 0 else { throw BadInputSetupError("python3 could not make the Nordic DFU packages: \(result.stderr)") }
    }

    private static func makeSpecialFiles(in folder: String) throws {
        for name in ["fifo", "port-fifo"] where mkfifo(folder + "/" + name, 0o600) != 0 {
            throw BadInputSetupError("mkfifo \(name): \(String(cString: strerror(errno)))")
        }
        try FileManager.default.createSymbolicLink(atPath: folder + "/loop", withDestinationPath: folder + "/loop")
        try FileManager.default.createSymbolicLink(atPath: folder + "/dangling", withDestinationPath: folder + "/nowhere")
        // Another name of local.txt, which a --report must not replace either.
        guard link(folder + "/local.txt", folder + "/local-hardlink.txt") == 0 else {
            throw BadInputSetupError("link local-hardlink.txt: \(String(cString: strerror(errno)))")
        }
        // fs get into dl.txt must not write through a link planted at dl.txt.part.
        try FileManager.default.createSymbolicLink(atPath: folder + "/dl.txt.part", withDestinationPath: folder + "/victim.txt")
        // A character device of our own (null: major 1, minor 3), so that no system node is at risk; a link to
        // /dev/null where device nodes cannot be made (not root).
        if mknod(folder + "/chardev", S_IFCHR | 0o666, dev_t(1 << 8 | 3)) != 0 {
            try FileManager.default.createSymbolicLink(atPath: folder + "/chardev", withDestinationPath: "/dev/null")
        }
        try sparse(folder + "/sparse-1g.bin", size: 1 << 30, start: [])
        try sparse(folder + "/sparse-4g.zip", size: 4 << 30, start: [0x50, 0x4B, 0x03, 0x04])
        // A config file past smpctl's 4 MiB limit, and one whose lock file cannot be opened.
        try sparse(folder + "/huge-config.yaml", size: 5 << 20, start: Array("defaults:\n".utf8))
        try FileManager.default.createDirectory(atPath: folder + "/locked-config.yaml.lock", withIntermediateDirectories: false)
    }

    /// A file of `size` bytes that takes no space: `start`, then a hole.
    private static func sparse(_ path: String, size: Int64, start: [UInt8]) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(start)), truncate(path, off_t(size)) == 0 else {
            throw BadInputSetupError("cannot make the sparse file \(path)")
        }
    }

    /// Whether `path` is still a character device (or the link that stands for one).
    static func isCharacterDeviceOrLink(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return false }
        let type = info.st_mode & S_IFMT
        return type == S_IFCHR || type == S_IFLNK
    }
}

/// The table's files or devices could not be set up.
struct BadInputSetupError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
