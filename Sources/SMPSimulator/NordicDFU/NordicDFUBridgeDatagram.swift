/// What the BlueZ mock (`Tests/Fixtures/bluez/mock_bluez.py`, a `--dfu-device`) tells a
/// ``NordicDFUDatagramServer``: one UDP datagram each, the first byte a tag (docs/ble-testing.md,
/// "The Nordic DFU bridge").
public enum NordicDFUBridgeEvent: Sendable, Hashable {
    /// `0x01` + bytes: a write to the Control Point (in the application: to its buttonless DFU
    /// characteristic or its legacy DFU Control Point).
    case controlPointWrite([UInt8])
    /// `0x02` + bytes: a write to the Data (Secure) or Packet (legacy) characteristic.
    case dataWrite([UInt8])
    /// `0x03` + the device's 6-byte address: a central connected.
    case connected(SimulatedBluetoothAddress)
    /// `0x04`: the link ended.
    case disconnected

    /// The tags, by case.
    enum Tag: UInt8 {
        case controlPointWrite = 0x01, dataWrite = 0x02, connected = 0x03, disconnected = 0x04
    }

    /// Reads a datagram; nil for an unknown tag or a malformed payload.
    public init?(datagram: [UInt8]) {
        guard let first = datagram.first, let tag = Tag(rawValue: first) else { return nil }
        let payload = Array(datagram.dropFirst())
        switch tag {
        case .controlPointWrite: self = .controlPointWrite(payload)
        case .dataWrite: self = .dataWrite(payload)
        case .connected:
            guard let address = SimulatedBluetoothAddress(bytes: payload) else { return nil }
            self = .connected(address)
        case .disconnected:
            guard payload.isEmpty else { return nil }
            self = .disconnected
        }
    }

    /// The datagram.
    public var datagram: [UInt8] {
        switch self {
        case .controlPointWrite(let bytes): [Tag.controlPointWrite.rawValue] + bytes
        case .dataWrite(let bytes): [Tag.dataWrite.rawValue] + bytes
        case .connected(let address): [Tag.connected.rawValue] + address.bytes
        case .disconnected: [Tag.disconnected.rawValue]
        }
    }
}

/// What a ``NordicDFUDatagramServer`` tells the BlueZ mock: one UDP datagram each, the first
/// byte a tag.
public enum NordicDFUBridgeCommand: Sendable, Hashable {
    /// The kind of bootloader a ``rebootIntoBootloader(_:address:name:)`` starts.
    public enum BootloaderKind: UInt8, Sendable, Hashable {
        /// Secure DFU (service 0xFE59).
        case secure = 1
        /// Legacy DFU (service 0x1530).
        case legacy = 2
    }

    /// `0x11` + bytes: a notification (or indication) on the Control Point.
    case notify([UInt8])
    /// `0x12`: the device resets: the link drops, it stops advertising for a while and comes back.
    case reset
    /// `0x13` + kind + 6-byte address + name (UTF-8): the application reboots into its
    /// bootloader: the link drops, and the device comes back as this bootloader.
    case rebootIntoBootloader(BootloaderKind, address: SimulatedBluetoothAddress, name: String)

    enum Tag: UInt8 {
        case notify = 0x11, reset = 0x12, rebootIntoBootloader = 0x13
    }

    /// Reads a datagram; nil for an unknown tag or a malformed payload.
    public init?(datagram: [UInt8]) {
        guard let first = datagram.first, let tag = Tag(rawValue: first) else { return nil }
        let payload = Array(datagram.dropFirst())
        switch tag {
        case .notify: self = .notify(payload)
        case .reset:
            guard payload.isEmpty else { return nil }
            self = .reset
        case .rebootIntoBootloader:
            guard payload.count >= 7, let kind = BootloaderKind(rawValue: payload[0]),
                let address = SimulatedBluetoothAddress(bytes: Array(payload[1..<7])),
                let name = String(validating: payload[7...], as: UTF8.self)
            else { return nil }
            self = .rebootIntoBootloader(kind, address: address, name: name)
        }
    }

    /// The datagram.
    public var datagram: [UInt8] {
        switch self {
        case .notify(let bytes): [Tag.notify.rawValue] + bytes
        case .reset: [Tag.reset.rawValue]
        case let .rebootIntoBootloader(kind, address, name):
            [Tag.rebootIntoBootloader.rawValue, kind.rawValue] + address.bytes + Array(name.utf8)
        }
    }
}
