import FoundationEssentials
import SMP
#if canImport(Glibc)
import Glibc
#endif

/// A firmware update as a file: a signed MCUboot image (binary or Intel HEX), an NCS
/// `dfu_application.zip`, a SUIT envelope or an NCS SUIT package (`dfu_suit.zip`).
///
/// The kind comes from the content (MCUboot magic, `:` for Intel HEX, `PK\x03\x04`, CBOR tag
/// 107), never from the extension alone. Archives are read in memory: no name from the archive is used as a path.
public struct FirmwarePackage: Sendable, Equatable {
    /// What kind of package this is.
    public enum Kind: String, Sendable, Equatable {
        /// One signed MCUboot image (`.bin`, or `.hex`: see ``IntelHexImage``).
        case mcubootImage = "mcuboot-image"
        /// A ZIP with `manifest.json` and MCUboot images (`dfu_application.zip`).
        case mcubootPackage = "mcuboot-package"
        /// One SUIT envelope (`.suit`).
        case suitEnvelope = "suit-envelope"
        /// A ZIP with `manifest.json`, a SUIT envelope and cache/resource files (`dfu_suit.zip`).
        case suitPackage = "suit-package"
    }

    /// The kind of package.
    public var kind: Kind
    /// The files to send, in manifest order (the SUIT envelope and caches for SUIT packages).
    public var images: [PackageImage]
    /// The DirectXIP pairs: image numbers for which the package has a slot-0 and a slot-1 binary.
    public var directXIPPairs: [DirectXIPPair]
    /// The decoded SUIT envelope, for SUIT envelopes and packages.
    public var suitEnvelope: SUITEnvelope?
    /// Files a SUIT device may request after processing the envelope (`file://NAME`).
    public var resources: [PackageImage]
    /// The manifest, for ZIP packages.
    public var manifest: PackageManifest?

    /// The MCUboot image magic as it appears in a file (`0x96f3b83d` little-endian).
    public static let mcubootMagic: [UInt8] = [0x3D, 0xB8, 0xF3, 0x96]
    /// The signature of a ZIP local file header.
    public static let zipSignature: [UInt8] = [0x50, 0x4B, 0x03, 0x04]

    /// Reads and decodes the package at `path`. Only a regular file is read (a FIFO or a device
    /// is refused at once, never waited on), and its size is checked against the limit before
    /// anything is read.
    public init(contentsOf path: String, limits: PackageLimits = PackageLimits()) throws(FirmwarePackageError) {
        try self.init(data: Data(try Self.readFile(path, limits: limits)), name: path, limits: limits)
    }

    /// The bytes of the package file at `path`: a regular file only (a FIFO or a device is
    /// refused at once), its size checked against `limits` before anything is read. Shared with
    /// NordicDFU's package reader.
    package static func readFile(_ path: String, limits: PackageLimits) throws(FirmwarePackageError) -> [UInt8] {
        do {
            let source = try FileUploadSource(path: path)
            guard source.count <= limits.maximumFileSize else { throw FirmwarePackageError.fileTooLarge(path: path, limit: limits.maximumFileSize) }
            return try source.read(offset: 0, length: source.count)
        } catch let error as FirmwarePackageError {
            throw error
        } catch let error as FileAccessError {
            throw .unreadable(path: path, reason: error.detail ?? String(cString: strerror(error.code)))
        } catch {
            // FileUploadSource throws FileAccessError only; anything else is described as it describes itself.
            throw .unreadable(path: path, reason: String(describing: error))
        }
    }

    /// Decodes a package held in memory; `name` (a file name or path) is used in errors, as the
    /// file name of a single image, and for its extension as a hint.
    public init(data: Data, name: String, limits: PackageLimits = PackageLimits()) throws(FirmwarePackageError) {
        let bytes = [UInt8](data)
        let fileName = URL(fileURLWithPath: name).lastPathComponent
        if bytes.starts(with: Self.mcubootMagic) || IntelHex.looksLikeIntelHex(bytes) {
            try self.init(image: bytes, name: name, limits: limits)
        } else if SUITEnvelope.hasSignature(bytes) {
            let envelope = try SUITEnvelope(bytes: bytes)
            self.init(kind: .suitEnvelope, images: [PackageImage(image: 0, target: .suitEnvelope, fileName: fileName, bytes: bytes)], suitEnvelope: envelope)
        } else if bytes.starts(with: Self.zipSignature) {
            try self.init(archive: data, limits: limits)
        } else {
            throw .unrecognisedContent(path: name, firstBytes: Array(bytes.prefix(8)), hint: Self.extensionHint(name))
        }
    }

    private init(
        kind: Kind, images: [PackageImage], directXIPPairs: [DirectXIPPair] = [], suitEnvelope: SUITEnvelope? = nil,
        resources: [PackageImage] = [], manifest: PackageManifest? = nil
    ) {
        self.kind = kind
        self.images = images
        self.directXIPPairs = directXIPPairs
        self.suitEnvelope = suitEnvelope
        self.resources = resources
        self.manifest = manifest
    }

    /// Reads a signed MCUboot image as every image file is read (``ImageFile``): a binary as it
    /// is, an Intel HEX file decoded into the same bytes, the address it places them at becoming
    /// the image's ``PackageImage/loadAddress``.
    private init(image contents: [UInt8], name: String, limits: PackageLimits) throws(FirmwarePackageError) {
        let file: ImageFile
        do {
            file = try ImageFile(contents: contents, maximumSize: limits.maximumEntrySize)
        } catch {
            throw .intelHex(path: name, error)
        }
        let image = PackageImage(
            image: 0, target: .application, fileName: URL(fileURLWithPath: name).lastPathComponent,
            mcubootVersion: Self.headerVersion(file.bytes), loadAddress: file.intelHex.map { UInt64($0.baseAddress) }, bytes: file.bytes)
        self.init(kind: .mcubootImage, images: [image])
    }

    /// Reads a ZIP package: its manifest, then each file it names.
    private init(archive data: Data, limits: PackageLimits) throws(FirmwarePackageError) {
        var archive = try PackageArchive(data: data, limits: limits)
        guard let manifestBytes = try archive.read("manifest.json") else { throw .missingManifest }
        let manifest = try PackageManifest(json: manifestBytes)
        var files: [ManifestedFile] = []
        for (entry, file) in manifest.files.enumerated() {
            guard PackageArchive.isSafe(file.file) else {
                throw .manifestInvalid(path: "files[\(entry)].file", problem: "unsafe file name \(FirmwarePackageError.quoted(file.file))")
            }
            guard archive.contains(file.file) else { throw .missingFile(entry: entry, name: file.file) }
            guard let bytes = try archive.read(file.file) else { throw .notAFile(entry: entry, name: file.file) }
            files.append(ManifestedFile(entry: entry, file: file, bytes: bytes))
        }
        let envelopes = files.filter { $0.file.type == "suit-envelope" }
        guard let envelope = envelopes.first else {
            let images = try Self.mcubootImages(files)
            self.init(kind: .mcubootPackage, images: images, directXIPPairs: DirectXIPPair.pairs(in: images), manifest: manifest)
            return
        }
        if envelopes.count > 1 {
            throw .manifestInvalid(path: "files[\(envelopes[1].entry)]", problem: "a second suit-envelope (the first is files[\(envelope.entry)])")
        }
        let parts = files.map { Self.image($0.file, bytes: $0.bytes) }
        let isSent: (PackageImage) -> Bool = { part in
            switch part.target {
            case .suitEnvelope, .suitCache: return true
            default: return false
            }
        }
        self.init(
            kind: .suitPackage, images: parts.filter(isSent), suitEnvelope: try SUITEnvelope(bytes: envelope.bytes),
            resources: parts.filter { !isSent($0) }, manifest: manifest)
    }

    /// A manifest entry with its index and content.
    private struct ManifestedFile {
        var entry: Int
        var file: PackageManifest.File
        var bytes: [UInt8]
    }

    /// The images of an MCUboot package: each must carry the magic, and no (image, slot) twice.
    private static func mcubootImages(_ files: [ManifestedFile]) throws(FirmwarePackageError) -> [PackageImage] {
        var images: [PackageImage] = []
        var seen: [String: Int] = [:]
        for item in files {
            let (entry, file, bytes) = (item.entry, item.file, item.bytes)
            guard bytes.starts(with: mcubootMagic) else { throw .notAnMCUbootImage(entry: entry, name: file.file) }
            let key = "\(file.image)/\(file.slot.map(String.init) ?? "-")"
            if let first = seen[key] { throw .duplicateImage(entry: entry, image: file.image, slot: file.slot, firstEntry: first) }
            seen[key] = entry
            var image = image(file, bytes: bytes)
            image.mcubootVersion = image.mcubootVersion ?? headerVersion(bytes)
            images.append(image)
        }
        return images
    }

    private static func image(_ file: PackageManifest.File, bytes: [UInt8]) -> PackageImage {
        PackageImage(
            image: file.image, slot: file.slot, target: PackageTarget(file), fileName: file.file, mcubootVersion: file.mcubootVersion,
            loadAddress: file.loadAddress, board: file.board, bytes: bytes)
    }

    /// `major.minor.revision+build` from the MCUboot header, or nil if the header does not parse.
    static func headerVersion(_ bytes: [UInt8]) -> String? {
        (try? MCUbootImageHeader(parsing: bytes))?.version.description
    }

    private static func extensionHint(_ name: String) -> String? {
        switch URL(fileURLWithPath: name).pathExtension.lowercased() {
        case "zip": return "the name ends in .zip but the file has no ZIP signature (50 4b 03 04)"
        case "bin": return "the name ends in .bin but the file has no MCUboot magic (3d b8 f3 96): \(UnsignedImageAdvice.text(extension: "bin"))"
        case "suit": return "the name ends in .suit but the file does not start with CBOR tag 107 (d8 6b)"
        case "hex": return "the name ends in .hex but the file does not start with ':' (an Intel HEX record)"
        default: return nil
        }
    }
}
