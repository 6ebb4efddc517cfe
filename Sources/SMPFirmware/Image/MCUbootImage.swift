import FoundationEssentials
import SMP

/// An MCUboot image file (for example `zephyr.signed.bin`), parsed strictly and within bounds:
/// header, body, protected and unprotected TLV areas, hashes recomputed, optional trailer.
///
/// Structural damage throws ``MCUbootImageError`` with the byte offset involved. A hash that does
/// not match is not a parse error: it is reported in ``hashChecks`` and by ``verifyHash()``, so
/// that a damaged image can still be inspected.
public struct MCUbootImage: Sendable, Hashable {
    /// The image header.
    public var header: MCUbootImageHeader
    /// The protected TLV area (magic `0x6908`), when `ih_protect_tlv_size` is not 0.
    public var protectedArea: MCUbootTLVArea?
    /// The unprotected TLV area (magic `0x6907`).
    public var unprotectedArea: MCUbootTLVArea
    /// Each hash TLV compared with the recomputed hash.
    public var hashChecks: [MCUbootHashCheck]
    /// The signature TLVs.
    public var signatures: [MCUbootSignature]
    /// The signing key TLVs (`KEYHASH`, `PUBKEY`).
    public var signingKeys: [MCUbootSigningKey]
    /// The trailer of a padded file (`imgtool --pad`), if there is one.
    public var trailer: MCUbootImageTrailer?
    /// The size of the file parsed.
    public var fileSize: Int
    /// A RAM-load image's first four body words (fewer for a shorter body; none for other
    /// images): on Arm Cortex-M, the vector table's initial stack pointer and reset, NMI and
    /// HardFault handlers.
    var leadingBodyWords: [UInt32]

    /// Parses an image file's bytes.
    public init(bytes: [UInt8]) throws(MCUbootImageError) {
        try self.init(source: bytes)
    }

    /// Parses an image file's contents.
    public init(data: Data) throws(MCUbootImageError) {
        try self.init(bytes: [UInt8](data))
    }

    /// Parses an image read by position from `source` (a ``FileUploadSource`` for a file): the
    /// header, the TLV areas and the trailer are read where they lie, and the hashes are computed
    /// piece by piece, so memory stays bounded whatever the file's size.
    public init(source: some UploadSource) throws(MCUbootImageError) {
        let file = ImageSourceReader(source)
        header = try MCUbootImageHeader(parsing: file.bytes(at: 0, count: min(file.size, MCUbootImageHeader.size)))
        let bodyEnd = header.headerSize + header.imageSize
        guard bodyEnd <= file.size else { throw .bodyBeyondFile(bodyEnd: bodyEnd, fileSize: file.size) }
        var hashedEnd = bodyEnd
        if header.protectedTLVSize != 0 {
            let area = try MCUbootTLVArea.parse(.protected, at: bodyEnd, in: file)
            guard area.totalSize == header.protectedTLVSize else {
                throw .protectedSizeMismatch(offset: bodyEnd, headerSize: header.protectedTLVSize, areaSize: area.totalSize)
            }
            protectedArea = area
            hashedEnd += area.totalSize
        }
        unprotectedArea = try MCUbootTLVArea.parse(.unprotected, at: hashedEnd, in: file)
        fileSize = file.size
        hashChecks = try Self.checkHashes(unprotectedArea.entries, hashedLength: hashedEnd, of: file, encrypted: header.flags.isEncrypted)
        let algorithms = hashChecks.map(\.algorithm)
        let entries = unprotectedArea.entries
        signatures = entries.compactMap { entry in
            MCUbootSignatureType(tlvType: entry.type, hashAlgorithms: algorithms).map {
                MCUbootSignature(type: $0, offset: entry.offset, value: entry.value)
            }
        }
        signingKeys = entries.compactMap { entry in
            switch entry.type {
            case .keyHash: return .keyHash(entry.value)
            case .publicKey: return .publicKey(entry.value)
            default: return nil
            }
        }
        trailer = try MCUbootImageTrailer(endOf: file, imageEnd: hashedEnd + unprotectedArea.totalSize)
        // Read for RAM-load images only (``loadAddressMismatch``).
        let leading = header.flags.contains(.ramLoad) ? try file.bytes(at: header.headerSize, count: min(16, header.imageSize) / 4 * 4) : []
        leadingBodyWords = stride(from: 0, to: leading.count, by: 4).map { leading.imageUInt32(at: $0) }
    }

    private static func checkHashes(
        _ entries: [MCUbootTLV], hashedLength: Int, of file: ImageSourceReader, encrypted: Bool
    ) throws(MCUbootImageError) -> [MCUbootHashCheck] {
        var checks: [MCUbootHashCheck] = []
        for entry in entries {
            guard let algorithm = MCUbootHashAlgorithm(tlvType: entry.type) else { continue }
            guard entry.value.count == algorithm.digestSize else {
                throw .badHashLength(type: entry.type, offset: entry.offset, length: entry.value.count)
            }
            guard !checks.contains(where: { $0.algorithm == algorithm }) else {
                throw .duplicateHashTLV(type: entry.type, offset: entry.offset)
            }
            let computed = try file.digest(algorithm, length: hashedLength)
            let status: MCUbootHashCheck.Status = encrypted ? .encrypted : computed == entry.value ? .valid : .mismatch
            checks.append(MCUbootHashCheck(
                algorithm: algorithm, offset: entry.offset, expected: entry.value, computed: computed, status: status))
        }
        return checks
    }

    /// Every TLV: the protected ones, then the unprotected ones.
    public var tlvs: [MCUbootTLV] { (protectedArea?.entries ?? []) + unprotectedArea.entries }

    /// The SHA-256 image hash (the 32-byte `SHA256` TLV value): what devices list and what
    /// test/confirm send. Nil when the image has no SHA-256 TLV (devices do not list such images).
    public var imageHash: [UInt8]? { hashChecks.first { $0.algorithm == .sha256 }?.expected }

    /// ``imageHash`` in lowercase hexadecimal.
    public var imageHashHex: String? { imageHash.map { Hex.string($0) } }

    /// Whether the signature is over the image itself (`SIG_PURE`), so there is no hash TLV.
    public var isPureSignature: Bool { unprotectedArea.entries.contains { $0.type == .signaturePure } }

    /// The image's size without any padding or trailer: header, body and both TLV areas.
    public var totalSize: Int { unprotectedArea.offset + unprotectedArea.totalSize }

    /// Throws ``MCUbootImageError/hashMismatch(type:offset:expected:computed:)`` for the first hash
    /// TLV that differs from the recomputed hash.
    public func verifyHash() throws(MCUbootImageError) {
        guard let bad = hashChecks.first(where: { $0.status == .mismatch }) else { return }
        throw .hashMismatch(type: bad.algorithm.tlvType, offset: bad.offset, expected: bad.expected, computed: bad.computed)
    }
}
