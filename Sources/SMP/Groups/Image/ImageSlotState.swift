import CBOR

/// One slot of the image-state list (docs/protocol/images.md §4.2): an image the device holds, with its flags.
///
/// Devices with frugal lists (MCUboot, `MCUMGR_GRP_IMG_FRUGAL_LIST`) send only the flags that
/// are true; missing flags are false, and a missing image number is 0.
public struct ImageSlotState: Sendable, Hashable {
    /// Image number (0 = application, 1 = network core or second application, …).
    public var image: UInt64
    /// Slot within the image: 0 primary, 1 secondary.
    public var slot: UInt64
    /// Version as the device prints it ("1.2.3" or "1.2.3.4").
    public var version: String
    /// The image's SHA-256 TLV (32 bytes); nil when the device does not report it (MCUboot
    /// serial recovery without `MCUBOOT_SERIAL_IMG_GRP_HASH`).
    public var hash: [UInt8]?
    /// Whether the image may boot (not a split-image application).
    public var bootable: Bool
    /// Whether the image is swapped in on the next reset.
    public var pending: Bool
    /// Whether the image is confirmed (stays after the next reset).
    public var confirmed: Bool
    /// Whether the image is running.
    public var active: Bool
    /// Whether the pending swap is permanent (no revert).
    public var permanent: Bool
    /// Mynewt's split status for this slot, when reported.
    public var splitStatus: Int64?

    /// Creates an entry; flags default to false.
    public init(
        image: UInt64 = 0, slot: UInt64, version: String, hash: [UInt8]?, bootable: Bool = false,
        pending: Bool = false, confirmed: Bool = false, active: Bool = false, permanent: Bool = false,
        splitStatus: Int64? = nil
    ) {
        self.image = image
        self.slot = slot
        self.version = version
        self.hash = hash
        self.bootable = bootable
        self.pending = pending
        self.confirmed = confirmed
        self.active = active
        self.permanent = permanent
        self.splitStatus = splitStatus
    }

    /// Reads one entry of the `images` array.
    init(decoding fields: CBORMap) throws(SMPResponseError) {
        self.init(
            image: try fields.optionalUnsigned("image") ?? 0, slot: try fields.unsigned("slot"),
            version: try fields.text("version"), hash: try fields.optionalBytes("hash"))
        if let hash, hash.count != Self.hashLength {
            throw SMPResponseError("field \"hash\" should hold \(Self.hashLength) bytes but holds \(hash.count)")
        }
        bootable = try fields.optionalBool("bootable") ?? false
        pending = try fields.optionalBool("pending") ?? false
        confirmed = try fields.optionalBool("confirmed") ?? false
        active = try fields.optionalBool("active") ?? false
        permanent = try fields.optionalBool("permanent") ?? false
        splitStatus = try fields.optionalInteger("splitStatus")
    }

    /// The length of an image hash (SHA-256).
    public static let hashLength = 32
}

extension CBORMap {
    /// An optional non-negative integer field.
    func optionalUnsigned(_ key: String) throws(SMPResponseError) -> UInt64? {
        guard let value = self[key] else { return nil }
        guard let number = value.uint64Value else {
            throw SMPResponseError("field \"\(key)\" should be a non-negative integer but is \(value.typeName) \(value.diagnosticDescription)")
        }
        return number
    }

    /// An optional byte-string field.
    func optionalBytes(_ key: String) throws(SMPResponseError) -> [UInt8]? {
        guard let value = self[key] else { return nil }
        guard let bytes = value.bytesValue else {
            throw SMPResponseError("field \"\(key)\" should be a byte string but is \(value.typeName) \(value.diagnosticDescription)")
        }
        return bytes
    }

    /// An array field whose elements are all maps.
    func maps(_ key: String) throws(SMPResponseError) -> [CBORMap] {
        let value = try field(key)
        guard let items = value.arrayValue else {
            throw SMPResponseError("field \"\(key)\" should be an array but is \(value.typeName) \(value.diagnosticDescription)")
        }
        var maps: [CBORMap] = []
        for (index, item) in items.enumerated() {
            guard let map = item.mapValue else {
                throw SMPResponseError("element \(index) of \"\(key)\" should be a map but is \(item.typeName) \(item.diagnosticDescription)")
            }
            maps.append(map)
        }
        return maps
    }
}
