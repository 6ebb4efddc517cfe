/// The 8-byte SMP header (multi-byte fields big-endian).
///
/// Byte 0 holds reserved bits 5–7, the version in bits 3–4 and the operation in bits 0–2.
public struct SMPHeader: Sendable, Hashable, CustomStringConvertible {
    /// Size of an encoded header in bytes.
    public static let size = 8

    /// Operation.
    public var operation: SMPOperation
    /// Protocol version bits (0 = v1, 1 = v2; 2 and 3 are reserved and kept as read).
    public var versionBits: UInt8
    /// Flags (no bits are defined; sent as 0, ignored when received).
    public var flags: UInt8
    /// Length of the CBOR payload in bytes, not counting the header.
    public var length: UInt16
    /// Management group.
    public var group: SMPGroup
    /// Sequence number, echoed by the device.
    public var sequence: UInt8
    /// Command ID within the group.
    public var command: UInt8

    /// Creates a header.
    public init(
        operation: SMPOperation, version: SMPProtocolVersion = .v2, flags: UInt8 = 0, length: UInt16,
        group: SMPGroup, sequence: UInt8, command: UInt8
    ) {
        self.operation = operation
        self.versionBits = version.rawValue
        self.flags = flags
        self.length = length
        self.group = group
        self.sequence = sequence
        self.command = command
    }

    /// The protocol version, when the bits name a known one.
    public var version: SMPProtocolVersion? { SMPProtocolVersion(rawValue: versionBits) }

    /// The encoded 8 bytes.
    public var bytes: [UInt8] {
        [
            (versionBits & 0x03) << 3 | operation.rawValue, flags,
            UInt8(length >> 8), UInt8(length & 0xFF),
            UInt8(group.rawValue >> 8), UInt8(group.rawValue & 0xFF),
            sequence, command,
        ]
    }

    /// Decodes a header from the first 8 bytes of `bytes`.
    public init(decoding bytes: some RandomAccessCollection<UInt8>) throws(SMPFrameError) {
        guard bytes.count >= Self.size else { throw .truncatedHeader(count: bytes.count) }
        let b = Array(bytes.prefix(Self.size))
        guard let operation = SMPOperation(rawValue: b[0] & 0x07) else { throw .invalidOperation(b[0] & 0x07) }
        self.operation = operation
        self.versionBits = (b[0] >> 3) & 0x03
        self.flags = b[1]
        self.length = UInt16(b[2]) << 8 | UInt16(b[3])
        self.group = SMPGroup(rawValue: UInt16(b[4]) << 8 | UInt16(b[5]))
        self.sequence = b[6]
        self.command = b[7]
    }

    public var description: String {
        let versionText = version.map { $0 == .v1 ? "v1" : "v2" } ?? "version-bits=\(versionBits)"
        return "\(operation) \(versionText) group=\(group.rawValue) cmd=\(command) seq=\(sequence) len=\(length)"
            + (flags == 0 ? "" : " flags=0x\(String(flags, radix: 16))")
    }
}
