/// A Bluetooth device address as the BlueZ mock and its bridge carry it: six bytes, most
/// significant first, as written (`C0:FF:EE:00:00:01` is `C0 FF EE 00 00 01`).
public struct SimulatedBluetoothAddress: Sendable, Hashable, CustomStringConvertible {
    /// The six bytes, most significant first.
    public let bytes: [UInt8]

    /// An address from its six bytes; nil for another count.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 6 else { return nil }
        self.bytes = bytes
    }

    /// Parses `C0:FF:EE:00:00:01` (either case); nil for anything else.
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        let bytes = parts.compactMap { $0.count == 2 && $0.allSatisfy(\.isHexDigit) ? UInt8($0, radix: 16) : nil }
        self.init(bytes: parts.count == 6 ? bytes : [])
    }

    /// The address with its last byte plus one (wrapping), where an nRF5 SDK Secure bootloader
    /// entered through buttonless DFU without bonds advertises (as Android's
    /// `ButtonlessDfuImpl` and nrf-ota look for it).
    public var incremented: SimulatedBluetoothAddress {
        var next = bytes
        next[5] &+= 1
        return SimulatedBluetoothAddress(uncheckedBytes: next)
    }

    private init(uncheckedBytes: [UInt8]) {
        bytes = uncheckedBytes
    }

    /// `C0:FF:EE:00:00:01`.
    public var description: String {
        bytes.map { String($0, radix: 16, uppercase: true).leftPadded(to: 2) }.joined(separator: ":")
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
