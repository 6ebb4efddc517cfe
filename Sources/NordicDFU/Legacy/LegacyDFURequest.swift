/// A write to the legacy DFU control point.
public enum LegacyDFURequest: Sendable, Hashable, CustomStringConvertible {
    /// `[01, mode]`: start an update of the kinds in `mode` (SoftDevice 1, bootloader 2,
    /// application 4, see ``DFUFirmwareType/legacyModeBits``); the three sizes follow on Packet.
    case start(mode: UInt8)
    /// `[01]`: the "version 1" Start of nRF5 SDK ≤ 6; the application's size alone follows on Packet.
    case startVersion1
    /// `[02 00]`: the init packet's bytes follow on Packet.
    case initializeBegin
    /// `[02 01]`: the init packet is complete: check it.
    case initializeComplete
    /// `[03]`: the firmware follows on Packet.
    case receiveFirmware
    /// `[04]`: check the image.
    case validate
    /// `[05]`: install and reset.
    case activateAndReset
    /// `[06]`: reset, dropping the update.
    case reset
    /// `[07]`: report the firmware bytes received.
    case reportReceivedSize
    /// `[08, u16]`: a receipt notification after every `interval` packets (0: none).
    case receiptNotificationRequest(UInt16)

    /// The op code.
    public var opCode: LegacyDFUOpCode {
        switch self {
        case .start, .startVersion1: .start
        case .initializeBegin, .initializeComplete: .initialize
        case .receiveFirmware: .receiveFirmware
        case .validate: .validate
        case .activateAndReset: .activateAndReset
        case .reset: .reset
        case .reportReceivedSize: .reportReceivedSize
        case .receiptNotificationRequest: .receiptNotificationRequest
        }
    }

    /// The bytes written to the control point.
    public var bytes: [UInt8] {
        let op = opCode.rawValue
        switch self {
        case .start(let mode): return [op, mode]
        case .initializeBegin: return [op, 0x00]
        case .initializeComplete: return [op, 0x01]
        case .receiptNotificationRequest(let interval): return [op] + LittleEndian.bytes(interval)
        case .startVersion1, .receiveFirmware, .validate, .activateAndReset, .reset, .reportReceivedSize: return [op]
        }
    }

    /// Reads a control point write as a bootloader does; nil for an unknown op code or a length
    /// that does not fit it.
    public static func parse(_ bytes: [UInt8]) -> LegacyDFURequest? {
        guard let first = bytes.first, let op = LegacyDFUOpCode(rawValue: first) else { return nil }
        let rest = bytes.dropFirst()
        switch (op, rest.count) {
        case (.start, 0): return .startVersion1
        case (.start, 1): return .start(mode: rest[rest.startIndex])
        case (.initialize, 1):
            switch rest[rest.startIndex] {
            case 0x00: return .initializeBegin
            case 0x01: return .initializeComplete
            default: return nil
            }
        case (.receiveFirmware, 0): return .receiveFirmware
        case (.validate, 0): return .validate
        case (.activateAndReset, 0): return .activateAndReset
        case (.reset, 0): return .reset
        case (.reportReceivedSize, 0): return .reportReceivedSize
        case (.receiptNotificationRequest, 2): return .receiptNotificationRequest(UInt16(LittleEndian.value(Array(rest), at: 0, count: 2)))
        default: return nil
        }
    }

    /// The sizes a Start request's Packet write carries: SoftDevice, bootloader, application,
    /// each a u32 little-endian.
    public static func startSizes(softDevice: UInt32, bootloader: UInt32, application: UInt32) -> [UInt8] {
        LittleEndian.bytes(softDevice) + LittleEndian.bytes(bootloader) + LittleEndian.bytes(application)
    }

    /// The application size a version-1 Start's Packet write carries (u32 little-endian).
    public static func startVersion1Size(_ application: UInt32) -> [UInt8] { LittleEndian.bytes(application) }

    /// `Start (mode 4)`.
    public var description: String {
        switch self {
        case .start(let mode): "Start (mode \(mode))"
        case .startVersion1: "Start (version 1)"
        case .initializeBegin: "Init (begin)"
        case .initializeComplete: "Init (complete)"
        case .receiptNotificationRequest(let interval): "Packet receipt notification request (\(interval))"
        default: opCode.description
        }
    }
}
