import SMP

/// One MCUboot image an upgrade may install: its image number, the bytes to upload, and the
/// SHA-256 TLV hash and version by which the device lists it.
public struct MCUbootUpgradeImage: Sendable, Equatable {
    /// The MCUboot image number (`image` of the upload).
    public var image: Int
    /// The DirectXIP slot the binary is linked for, when the package says so.
    public var slot: Int?
    /// What the image is for (application, network core…).
    public var target: PackageTarget
    /// The file name (in the package, or the file's own).
    public var fileName: String
    /// The file's bytes, uploaded as they are.
    public var bytes: [UInt8]
    /// The image's SHA-256: what the state list shows and test/confirm take. Images read from files
    /// (``init(_:)``) carry the hash computed from their bytes, checked equal to their SHA-256 TLV.
    public var hash: [UInt8]
    /// The version from the image header.
    public var version: MCUbootImageVersion
    /// The header's flags (`RAM_LOAD`, `ROM_FIXED`…): they tell how the bootloader runs the image
    /// when the device does not report its mode.
    public var flags: MCUbootImageFlags
    /// The header's load address (RAM-load target, or the flash address of a `ROM_FIXED` image).
    public var loadAddress: UInt32

    /// Creates an image from its parts (the caller vouches that `hash` and `version` describe `bytes`).
    public init(
        image: Int, slot: Int? = nil, target: PackageTarget = .application, fileName: String, bytes: [UInt8], hash: [UInt8],
        version: MCUbootImageVersion, flags: MCUbootImageFlags = [], loadAddress: UInt32 = 0
    ) {
        self.image = image
        self.slot = slot
        self.target = target
        self.fileName = fileName
        self.bytes = bytes
        self.hash = hash
        self.version = version
        self.flags = flags
        self.loadAddress = loadAddress
    }

    /// Reads an image of a package; fails when it is not a complete MCUboot image with a SHA-256
    /// TLV that matches its content (a damaged file never reaches the device).
    public init(_ image: PackageImage) throws(UpgradePlanError) {
        let (parsed, hash) = try Self.checked(image.bytes, fileName: image.fileName)
        self.image = image.image
        slot = image.slot
        target = image.target
        fileName = image.fileName
        bytes = image.bytes
        self.hash = hash
        version = parsed.header.version
        flags = parsed.header.flags
        loadAddress = parsed.header.loadAddress
    }

    /// Parses `bytes` as a complete MCUboot image and recomputes its hash: the image and its
    /// SHA-256, which equals the SHA-256 TLV (fails when the file is truncated, its header, TLV
    /// areas or magic are damaged, the recomputed hash differs from the TLV, there is no SHA-256
    /// TLV, or a RAM-load image's code is linked for other addresses than its header loads it
    /// to: ``MCUbootImage/loadAddressMismatch``). `image upload` and `upgrade` send only what passes.
    public static func checked(_ bytes: [UInt8], fileName: String) throws(UpgradePlanError) -> (image: MCUbootImage, hash: [UInt8]) {
        let parsed: MCUbootImage
        do {
            parsed = try MCUbootImage(bytes: bytes)
            try parsed.verifyHash()
            try parsed.verifyLoadAddress()
        } catch {
            throw .invalidImage(fileName: fileName, reason: error.description)
        }
        guard let hash = parsed.imageHash else { throw .noImageHash(fileName: fileName) }
        return (parsed, hash)
    }

    /// The images of a package an upgrade installs (every MCUboot image, in package order).
    public static func images(in package: FirmwarePackage) throws(UpgradePlanError) -> [MCUbootUpgradeImage] {
        switch package.kind {
        case .suitEnvelope, .suitPackage: throw .suitNotSupported
        case .mcubootImage, .mcubootPackage: break
        }
        var images: [MCUbootUpgradeImage] = []
        for image in package.images { images.append(try MCUbootUpgradeImage(image)) }
        guard !images.isEmpty else { throw .emptyPackage }
        return images
    }

    /// `image 0 (app.bin, 1.2.3+0, 204800 bytes)`.
    public var summary: String {
        "image \(image) (\(fileName), \(version), \(bytes.count) bytes)"
    }

    /// The hash in hex.
    public var hashHex: String { Hex.string(hash) }

    /// The image as JSON members: number, slot, file, target, version, hash and size.
    public var fields: [UpgradeField] {
        [
            UpgradeField("image", .uint(UInt64(image))), UpgradeField("slot", slot.map { .uint(UInt64($0)) } ?? .null),
            UpgradeField("file", .string(fileName)), UpgradeField("target", .string(target.description)),
            UpgradeField("version", .string(version.description)), UpgradeField("imageHash", .string(hashHex)),
            UpgradeField("size", .uint(UInt64(bytes.count))),
        ]
    }
}
