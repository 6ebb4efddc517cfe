import CBOR
import Foundation

/// Firmware files for the `smpctl package` tests, written to a temporary directory.
struct PackageTestFiles {
    /// The directory holding the files; removed by ``remove()``.
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("smpctl-package-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    /// Writes `bytes` as `name` and returns the path.
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// A minimal MCUboot image: a 32-byte header (magic, header size 32, `version`) and `body`.
    static func image(version: (UInt8, UInt8, UInt8, UInt8), body: [UInt8] = [1, 2, 3, 4]) -> [UInt8] {
        var header: [UInt8] = [0x3D, 0xB8, 0xF3, 0x96, 0, 0, 0, 0, 32, 0, 0, 0, UInt8(body.count), 0, 0, 0, 0, 0, 0, 0]
        header += [version.0, version.1, version.2, 0, version.3, 0, 0, 0, 0, 0, 0, 0]
        return header + body
    }

    /// A SUIT envelope with a SHA-256 manifest digest of 32 × `fill` and sequence number `sequence`.
    static func envelope(fill: UInt8, sequence: UInt64) -> [UInt8] {
        func encode(_ item: CBOR) -> [UInt8] {
            var writer = CBORWriter()
            writer.write(item)
            return writer.bytes
        }
        let digest = encode(.array([.int(-16), .bytes([UInt8](repeating: fill, count: 32))]))
        let manifest = encode(.map([.unsigned(1): .unsigned(1), .unsigned(2): .unsigned(sequence)]))
        return encode(.tagged(107, .map([.unsigned(2): .bytes(encode(.array([.bytes(digest)]))), .unsigned(3): .bytes(manifest)])))
    }

    /// A ZIP archive with the entries stored uncompressed (enough for `smpctl`, which reads any ZIP).
    static func zip(_ entries: [(String, [UInt8])]) -> [UInt8] {
        var local: [UInt8] = []
        var central: [UInt8] = []
        for (name, bytes) in entries {
            let nameBytes = Array(name.utf8)
            let common = le(20, 2) + le(0, 2) + le(0, 2) + le(0, 2) + le(0x21, 2) + le(crc32(bytes), 4)
                + le(UInt32(bytes.count), 4) + le(UInt32(bytes.count), 4) + le(UInt32(nameBytes.count), 2) + le(0, 2)
            central += [0x50, 0x4B, 0x01, 0x02] + le(0x031E, 2) + common + le(0, 2) + le(0, 2) + le(0, 2)
                + le(0o100644 << 16, 4) + le(UInt32(local.count), 4) + nameBytes
            local += [0x50, 0x4B, 0x03, 0x04] + common + nameBytes + bytes
        }
        let end = [0x50, 0x4B, 0x05, 0x06] + le(0, 2) + le(0, 2) + le(UInt32(entries.count), 2) + le(UInt32(entries.count), 2)
            + le(UInt32(central.count), 4) + le(UInt32(local.count), 4) + le(0, 2)
        return local + central + end
    }

    private static func le(_ value: UInt32, _ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
