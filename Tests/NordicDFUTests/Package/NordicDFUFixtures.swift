import Crypto
import Foundation
import NordicDFU
import ZIPFoundation

/// Nordic DFU packages and init packets built in Swift for the malformed-input tests: a minimal
/// protobuf writer for the fields of `dfu-cc.proto`, ECDSA signatures from swift-crypto, and ZIP
/// archives from ZIPFoundation. (The well-formed packages of the other tests come from an
/// independent encoder: ``GeneratedNordicPackages``.)
enum NordicDFUFixtures {
    /// A varint.
    static func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var bytes: [UInt8] = []
        repeat {
            let low = UInt8(value & 0x7F)
            value >>= 7
            bytes.append(value == 0 ? low : low | 0x80)
        } while value != 0
        return bytes
    }

    /// A varint field.
    static func field(_ number: UInt64, _ value: UInt64) -> [UInt8] { varint(number << 3) + varint(value) }

    /// A length-delimited field.
    static func field(_ number: UInt64, bytes: [UInt8]) -> [UInt8] { varint(number << 3 | 2) + varint(UInt64(bytes.count)) + bytes }

    /// An `InitCommand` for `firmware` of `type`, with its SHA-256 stored byte-reversed.
    static func initCommand(
        _ firmware: [UInt8], type: DFUFirmwareType = .application, firmwareVersion: UInt64 = 1, softDeviceRequirements: [UInt64] = [0xFFFE],
        sizes: (softDevice: Int, bootloader: Int)? = nil
    ) -> [UInt8] {
        var bytes = field(1, firmwareVersion) + field(2, 52)
        bytes += field(3, bytes: softDeviceRequirements.flatMap(varint))
        bytes += field(4, UInt64(type.rawValue))
        switch type {
        case .application, .externalApplication: bytes += field(7, UInt64(firmware.count))
        case .softDevice: bytes += field(5, UInt64(firmware.count))
        case .bootloader: bytes += field(6, UInt64(firmware.count))
        case .softDeviceBootloader: bytes += field(5, UInt64(sizes?.softDevice ?? 0)) + field(6, UInt64(sizes?.bootloader ?? 0))
        }
        bytes += field(8, bytes: field(1, 3) + field(2, bytes: Array(SHA256.hash(data: firmware)).reversed()))
        return bytes + field(9, 0)
    }

    /// A `Packet` holding `initCommand`: a `Command`, or a `SignedCommand` signed with `key`
    /// (r and s each byte-reversed).
    static func packet(_ initCommand: [UInt8], signedWith key: P256.Signing.PrivateKey? = nil) throws -> [UInt8] {
        let command = field(1, 1) + field(2, bytes: initCommand)
        guard let key else { return field(1, bytes: command) }
        let raw = Array(try key.signature(for: initCommand).rawRepresentation)
        let stored = Array(raw[0..<32].reversed()) + Array(raw[32..<64].reversed())
        return field(2, bytes: field(1, bytes: command) + field(2, 0) + field(3, bytes: stored))
    }

    /// A ZIP archive holding `entries` in order.
    static func zip(_ entries: [(String, [UInt8])]) throws -> Data {
        let archive = try Archive(accessMode: .create)
        for (name, bytes) in entries {
            let data = Data(bytes)
            try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        guard let data = archive.data else { throw MissingArchiveData() }
        return data
    }

    /// A package of one application: `manifest.json` (`manifest` given, else the usual one) and the files.
    static func application(
        _ firmware: [UInt8], initPacket: [UInt8], manifest: String = #"{"manifest": {"application": {"bin_file": "app.bin", "dat_file": "app.dat"}}}"#
    ) throws -> Data {
        try zip([("manifest.json", Array(manifest.utf8)), ("app.bin", firmware), ("app.dat", initPacket)])
    }

    /// Pseudo-random firmware bytes.
    static func firmware(_ count: Int, seed: UInt8 = 1) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed) &* 7) }
    }

    /// The error opening `data` throws, or nil if it opens.
    static func error(opening data: Data) -> NordicDFUPackageError? {
        do {
            _ = try NordicDFUPackage(data: data, name: "test.zip")
            return nil
        } catch {
            return error
        }
    }

    /// The error decoding `bytes` as a Secure DFU init packet throws, or nil if it decodes.
    static func error(decoding bytes: [UInt8]) -> InitPacketError? {
        do {
            _ = try SecureInitPacket(bytes: bytes)
            return nil
        } catch {
            return error
        }
    }

    private struct MissingArchiveData: Error {}
}
