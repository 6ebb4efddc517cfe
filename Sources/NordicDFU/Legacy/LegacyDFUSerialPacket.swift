/// A legacy DFU packet as the serial bootloader takes it (nRF5 SDK 11 `dfu_transport_serial.c`,
/// `dfu_types.h`): the payload of one HCI packet, a u32 packet type then its data. There are no
/// answers: the HCI acknowledgement is all a host hears.
public enum LegacyDFUSerialPacket: Sendable, Hashable, CustomStringConvertible {
    /// Type 3: start an update of the kinds in `mode` (SoftDevice 1, bootloader 2, application 4)
    /// with these sizes; the bootloader erases the flash it needs.
    case start(mode: UInt8, softDevice: UInt32, bootloader: UInt32, application: UInt32)
    /// Type 1: the init packet, followed by 2 zero bytes (the bootloader reads whole words).
    case initPacket([UInt8])
    /// Type 4: image bytes, at most ``maximumDataSize``.
    case data([UInt8])
    /// Type 5: the image is complete: validate it, activate it and reset.
    case stop
    /// A packet type the bootloader does not handle: it acknowledges the packet and ignores it.
    /// Sent to learn which sequence number the bootloader expects, changing nothing.
    case probe

    /// The most image bytes one data packet carries (adafruit-nrfutil's `DFU_PACKET_MAX_SIZE`).
    public static let maximumDataSize = 512
    /// The longest payload a host sends or a bootloader accepts: the type and a data packet.
    public static let maximumPayloadSize = 4 + maximumDataSize

    static let startType: UInt32 = 3
    static let initType: UInt32 = 1
    static let dataType: UInt32 = 4
    static let stopType: UInt32 = 5
    /// No packet type of the SDK's.
    static let probeType: UInt32 = 0

    /// The payload bytes.
    public var bytes: [UInt8] {
        switch self {
        case let .start(mode, softDevice, bootloader, application):
            return LittleEndian.bytes(Self.startType) + LittleEndian.bytes(UInt32(mode))
                + LegacyDFURequest.startSizes(softDevice: softDevice, bootloader: bootloader, application: application)
        case .initPacket(let bytes): return LittleEndian.bytes(Self.initType) + bytes + [0, 0]
        case .data(let bytes): return LittleEndian.bytes(Self.dataType) + bytes
        case .stop: return LittleEndian.bytes(Self.stopType)
        case .probe: return LittleEndian.bytes(Self.probeType)
        }
    }

    /// Reads a payload as a bootloader does; nil for a payload shorter than its type needs or an
    /// unknown type (which the bootloader ignores, like ``probe``).
    public static func parse(_ payload: [UInt8]) -> LegacyDFUSerialPacket? {
        guard payload.count >= 4 else { return nil }
        let rest = Array(payload[4...])
        switch UInt32(LittleEndian.value(payload, at: 0, count: 4)) {
        case startType:
            guard rest.count == 16 else { return nil }
            let word = { (index: Int) in UInt32(LittleEndian.value(rest, at: index * 4, count: 4)) }
            guard let mode = UInt8(exactly: word(0)) else { return nil }
            return .start(mode: mode, softDevice: word(1), bootloader: word(2), application: word(3))
        case initType:
            guard rest.count >= 2 else { return nil }
            return .initPacket(Array(rest.dropLast(2)))
        case dataType:
            guard !rest.isEmpty, rest.count <= maximumDataSize else { return nil }
            return .data(rest)
        case stopType:
            return .stop
        case probeType:
            return .probe
        default:
            return nil
        }
    }

    /// `Start packet (mode 4)`, `data packet (512 bytes)`.
    public var description: String {
        switch self {
        case .start(let mode, _, _, _): "Start packet (mode \(mode))"
        case .initPacket(let bytes): "init packet (\(bytes.count) bytes)"
        case .data(let bytes): "data packet (\(bytes.count) bytes)"
        case .stop: "Stop packet"
        case .probe: "probe packet"
        }
    }
}
