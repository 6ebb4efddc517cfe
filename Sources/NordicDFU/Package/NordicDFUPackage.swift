import FoundationEssentials
import JSON
import SMPFirmware

/// A Nordic DFU update for an nRF5 SDK bootloader: a package made by nrfutil or
/// adafruit-nrfutil (a ZIP with `manifest.json`, one `.bin` and one `.dat` init packet per
/// image), or a bare application (`.bin` or `.hex`, no init packet) for the oldest bootloaders.
///
/// Opening a package checks everything that can be checked without the device: the archive as
/// NCS packages are checked (``PackageArchive``, ``PackageLimits``: safe names, bounded sizes),
/// the manifest, each init packet's encoding, and each image against its init packet (type,
/// sizes, SHA-256 or CRC-16). Signatures are checked on request (``NordicDFUImage/signatureCheck(with:)``),
/// since that needs the public key.
///
/// A bare `.bin` cannot be told from other files by its content, so it is never recognised:
/// the caller asks for one with ``init(bareApplicationAt:limits:)``.
public struct NordicDFUPackage: Sendable, Equatable {
    /// What kind of Nordic DFU update this is.
    public enum Kind: String, Sendable, Equatable {
        /// An nRF5 SDK 12+ package: protobuf init packets, possibly signed.
        case secure = "nordic-secure-dfu"
        /// An nRF5 SDK 7–11 package (`dfu_version` in the manifest): extended init packets.
        case legacy = "nordic-legacy-dfu"
        /// An application without init packet or manifest.
        case bareApplication = "nordic-bare-application"
    }

    /// The kind.
    public var kind: Kind
    /// The images, in the order they are sent: SoftDevice and bootloader, SoftDevice,
    /// bootloader, application.
    public var images: [NordicDFUImage]
    /// The manifest; nil for a bare application.
    public var manifest: NordicDFUManifest?

    /// Reads and decodes the package at `path` (a regular file, its size checked first).
    public init(contentsOf path: String, limits: PackageLimits = PackageLimits()) throws(NordicDFUPackageError) {
        let bytes: [UInt8]
        do {
            bytes = try FirmwarePackage.readFile(path, limits: limits)
        } catch {
            throw .archive(error)
        }
        try self.init(data: Data(bytes), name: path, limits: limits)
    }

    /// Decodes a package held in memory; `name` is used in errors.
    public init(data: Data, name: String, limits: PackageLimits = PackageLimits()) throws(NordicDFUPackageError) {
        guard data.starts(with: FirmwarePackage.zipSignature) else { throw .notAnArchive(path: name, firstBytes: Array(data.prefix(8))) }
        var archive: PackageArchive
        let manifestBytes: [UInt8]?
        do {
            archive = try PackageArchive(data: data, limits: limits)
            manifestBytes = try archive.read("manifest.json")
        } catch {
            throw .archive(error)
        }
        guard let manifestBytes else { throw .archive(.missingManifest) }
        let manifest = try NordicDFUManifest(json: manifestBytes)
        var images: [NordicDFUImage] = []
        for entry in manifest.entries {
            let firmware = try Self.read(entry.binFile, of: entry, from: &archive)
            let initPacket = try Self.read(entry.datFile, of: entry, from: &archive)
            images.append(try NordicDFUImage(entry: entry, legacy: manifest.isLegacy, firmware: firmware, initPacket: initPacket))
        }
        self.init(kind: manifest.isLegacy ? .legacy : .secure, images: images, manifest: manifest)
    }

    /// Reads a bare application at `path`: Intel HEX (first byte `:`), one contiguous range,
    /// decoded to its bytes; anything else as a binary, sent as it is.
    public init(bareApplicationAt path: String, limits: PackageLimits = PackageLimits()) throws(NordicDFUPackageError) {
        let bytes: [UInt8]
        do {
            bytes = try FirmwarePackage.readFile(path, limits: limits)
        } catch {
            throw .archive(error)
        }
        try self.init(bareApplication: bytes, name: path, limits: limits)
    }

    /// A bare application held in memory; `name` (a file name or path) is used in errors and as
    /// the image's file name.
    public init(bareApplication contents: [UInt8], name: String, limits: PackageLimits = PackageLimits()) throws(NordicDFUPackageError) {
        var firmware = contents
        if IntelHex.looksLikeIntelHex(contents) {
            let hex: IntelHex
            do {
                hex = try IntelHex(text: contents, maximumDataSize: limits.maximumEntrySize)
            } catch {
                throw .archive(.intelHex(path: name, error))
            }
            guard hex.segments.count == 1, let segment = hex.segments.first else {
                guard !hex.segments.isEmpty else { throw .archive(.intelHex(path: name, .noData)) }
                throw .severalRanges(path: name, hex.ranges)
            }
            firmware = segment.bytes
        }
        guard !firmware.isEmpty else { throw .emptyApplication(path: name) }
        let fileName = name.split(separator: "/").last.map(String.init) ?? name
        self.init(kind: .bareApplication, images: [NordicDFUImage(bareApplication: firmware, name: fileName)], manifest: nil)
    }

    private init(kind: Kind, images: [NordicDFUImage], manifest: NordicDFUManifest?) {
        self.kind = kind
        self.images = images
        self.manifest = manifest
    }

    /// Whether `data` looks like an nRF5 SDK package: a ZIP archive whose `manifest.json` is a
    /// JSON object with a `manifest` object (an NCS package's has `files` instead). Cheap and
    /// never throws: for routing a file to this reader or to ``FirmwarePackage``; the archive is
    /// read within `limits`, and any problem answers false.
    public static func isNordicDFUPackage(_ data: Data, limits: PackageLimits = PackageLimits()) -> Bool {
        guard data.starts(with: FirmwarePackage.zipSignature), var archive = try? PackageArchive(data: data, limits: limits),
              let manifest = try? archive.read("manifest.json"), let root = try? JSONValue.parse(manifest),
              case .object? = root["manifest"]
        else { return false }
        return true
    }

    /// The content of the archive entry `name` that `entry` lists.
    private static func read(_ name: String, of entry: NordicDFUManifest.Entry, from archive: inout PackageArchive) throws(NordicDFUPackageError) -> [UInt8] {
        let key = entry.type.manifestKey
        guard archive.contains(name) else { throw .missingFile(entry: key, name: name) }
        let bytes: [UInt8]?
        do {
            bytes = try archive.read(name)
        } catch {
            throw .archive(error)
        }
        guard let bytes else { throw .notAFile(entry: key, name: name) }
        return bytes
    }
}
