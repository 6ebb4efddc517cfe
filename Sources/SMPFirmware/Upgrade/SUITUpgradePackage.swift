import SMP

/// One file a SUIT upgrade sends: the envelope, a cache image, or a resource the device may ask for.
public struct SUITUpgradeFile: Sendable, Equatable {
    /// The file name (in the package, or the envelope file's own).
    public var fileName: String
    /// The file's bytes, sent as they are.
    public var bytes: [UInt8]

    /// Creates a file.
    public init(fileName: String, bytes: [UInt8]) {
        self.fileName = fileName
        self.bytes = bytes
    }

    /// `app.bin (9000 bytes)`.
    public var summary: String { "\(fileName) (\(bytes.count) bytes)" }

    /// The file as an upload: labelled and named by its file name.
    public var upload: UpgradeUpload {
        UpgradeUpload(fileName: fileName, size: bytes.count, label: fileName, fields: [UpgradeField("file", .string(fileName))])
    }
}

/// A SUIT envelope or `dfu_suit.zip` as an upgrade sends it (docs/protocol/packages.md §18.2): the envelope, the cache
/// images with their partitions (sent first), and the resources served on request.
public struct SUITUpgradePackage: Sendable, Equatable {
    /// A cache image and the cache partition (`target_id`) it goes to.
    public struct Cache: Sendable, Equatable {
        /// The partition.
        public var partition: Int
        /// The image.
        public var file: SUITUpgradeFile
    }

    /// The envelope file.
    public var envelopeFile: SUITUpgradeFile
    /// The decoded envelope.
    public var envelope: SUITEnvelope
    /// The manifest digest (SHA-256) the device reports once the envelope is installed.
    public var digest: [UInt8]
    /// The cache images, in package order.
    public var caches: [Cache]
    /// The resources a device may ask for (`file://NAME`).
    public var resources: [SUITUpgradeFile]

    /// Reads a SUIT envelope or package; an MCUboot file, or an envelope without a SHA-256
    /// manifest digest, is refused.
    public init(_ package: FirmwarePackage) throws(UpgradePlanError) {
        guard let envelope = package.suitEnvelope,
              let envelopeImage = package.images.first(where: { $0.target == .suitEnvelope })
        else { throw .notSUIT }
        guard let digest = envelope.manifestDigest, digest.algorithm == -16, digest.bytes.count == 32 else {
            let found = envelope.manifestDigest.map { "a \($0.algorithmName ?? "COSE \($0.algorithm)") digest" } ?? "no digest"
            throw .suitDigest(fileName: envelopeImage.fileName, found: found)
        }
        envelopeFile = SUITUpgradeFile(fileName: envelopeImage.fileName, bytes: envelopeImage.bytes)
        self.envelope = envelope
        self.digest = digest.bytes
        caches = package.images.compactMap { image in
            guard case .suitCache(let partition) = image.target else { return nil }
            return Cache(partition: partition, file: SUITUpgradeFile(fileName: image.fileName, bytes: image.bytes))
        }
        resources = package.resources.map { SUITUpgradeFile(fileName: $0.fileName, bytes: $0.bytes) }
    }

    /// The resource a device asks for: the file whose name matches the `file://NAME` URI, case
    /// insensitively (as the Nordic clients match it); nil when the package has none.
    public func resource(for request: SUITResourceRequest) -> SUITUpgradeFile? {
        guard let name = request.fileName?.lowercased() else { return nil }
        return resources.first { $0.fileName.lowercased() == name }
    }

    /// The digest in hex.
    public var digestHex: String { Hex.string(digest) }
}
