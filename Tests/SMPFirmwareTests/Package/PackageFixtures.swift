import Foundation
import ZIPFoundation
@testable import SMPFirmware

/// Builders for test packages: fake MCUboot images and ZIP archives made in memory.
enum PackageFixtures {
    /// A minimal MCUboot image: a 32-byte header with the magic and `version`, then `body`.
    static func image(version: (UInt8, UInt8, UInt16, UInt32) = (1, 2, 3, 4), body: [UInt8] = [1, 2, 3, 4]) -> [UInt8] {
        var header = FirmwarePackage.mcubootMagic
        header += [0, 0, 0, 0]  // load address
        header += [32, 0, 0, 0]  // header size 32, no protected TLVs
        header += littleEndian(UInt32(body.count), 4)
        header += [0, 0, 0, 0]  // flags
        header += [version.0, version.1] + littleEndian(UInt32(version.2), 2) + littleEndian(version.3, 4)
        header += [0, 0, 0, 0]
        return header + body
    }

    private static func littleEndian(_ value: UInt32, _ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// A ZIP archive holding `entries` in order; names ending in `/` are directories.
    static func zip(_ entries: [(String, [UInt8])], compression: CompressionMethod = .deflate) throws -> Data {
        let archive = try Archive(accessMode: .create)
        for (name, bytes) in entries {
            let data = Data(bytes)
            let type: Entry.EntryType = name.hasSuffix("/") ? .directory : .file
            try archive.addEntry(with: name, type: type, uncompressedSize: Int64(data.count), compressionMethod: compression) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        return try unwrap(archive.data)
    }

    /// A ZIP with `manifest.json` (the text given) and the files.
    static func package(manifest: String, files: [(String, [UInt8])]) throws -> Data {
        try zip([("manifest.json", Array(manifest.utf8))] + files)
    }

    /// Rewrites the uncompressed size of every entry (local and central headers) to `size`.
    static func declaringUncompressedSize(_ size: UInt32, in zip: Data) -> Data {
        var bytes = [UInt8](zip)
        let patches: [([UInt8], Int)] = [([0x50, 0x4B, 0x03, 0x04], 22), ([0x50, 0x4B, 0x01, 0x02], 24)]
        for (signature, offset) in patches {
            var index = 0
            while index + offset + 4 <= bytes.count {
                if Array(bytes[index..<index + 4]) == signature {
                    bytes.replaceSubrange(index + offset..<index + offset + 4, with: littleEndian(size, 4))
                }
                index += 1
            }
        }
        return Data(bytes)
    }

    /// Opens in-memory package data.
    static func open(_ data: Data, name: String = "dfu_application.zip", limits: PackageLimits = PackageLimits()) throws(FirmwarePackageError) -> FirmwarePackage {
        try FirmwarePackage(data: data, name: name, limits: limits)
    }

    /// The error opening `data` throws, or nil if it opens.
    static func error(opening data: Data, name: String = "dfu_application.zip", limits: PackageLimits = PackageLimits()) -> FirmwarePackageError? {
        do {
            _ = try open(data, name: name, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    private struct MissingArchiveData: Error {}

    private static func unwrap(_ data: Data?) throws -> Data {
        guard let data else { throw MissingArchiveData() }
        return data
    }
}
