/// The first byte of a Secure DFU request (nRF5 SDK 12–17, `nrf_dfu_req_handler.h`), and of a
/// response, which is ``response`` followed by the request's op code.
public enum SecureDFUOpCode: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The protocol version (answered with one byte, 1 on SDK 15+; may be disabled).
    case protocolVersion = 0x00
    /// Create an object: type, u32 size.
    case create = 0x01
    /// Set the packet receipt notification interval: u16, 0 for none.
    case setReceiptNotification = 0x02
    /// The current object's offset and cumulative CRC-32.
    case calculateChecksum = 0x03
    /// Execute (commit) the current object.
    case execute = 0x04
    /// Select an object type: the largest object, and the offset and CRC of what was received.
    case select = 0x06
    /// The serial transport's largest SLIP frame (u16).
    case mtu = 0x07
    /// Data for the current object (serial; over BLE data goes on its own characteristic).
    case write = 0x08
    /// Ping: one byte echoed.
    case ping = 0x09
    /// The chip's part, variant and memory sizes.
    case hardwareVersion = 0x0A
    /// The version of one installed image.
    case firmwareVersion = 0x0B
    /// Abandon the update.
    case abort = 0x0C
    /// The first byte of every response.
    case response = 0x60

    /// A short name for messages.
    public var description: String {
        switch self {
        case .protocolVersion: "Protocol Version"
        case .create: "Create"
        case .setReceiptNotification: "Set PRN"
        case .calculateChecksum: "Calculate Checksum"
        case .execute: "Execute"
        case .select: "Select"
        case .mtu: "Get MTU"
        case .write: "Write"
        case .ping: "Ping"
        case .hardwareVersion: "Hardware Version"
        case .firmwareVersion: "Firmware Version"
        case .abort: "Abort"
        case .response: "Response"
        }
    }
}

/// The two kinds of Secure DFU object.
public enum SecureDFUObjectType: UInt8, Sendable, Hashable, CustomStringConvertible {
    /// The init packet (the package's `.dat`), sent as one command object.
    case command = 0x01
    /// The firmware (the package's `.bin`), sent in data objects of at most the selected size.
    case data = 0x02

    /// "command object" or "data object".
    public var description: String {
        switch self {
        case .command: "command object"
        case .data: "data object"
        }
    }
}
