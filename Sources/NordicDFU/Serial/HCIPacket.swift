import SMPConsoleFraming

/// The three-wire HCI packet (the nRF5 SDK's `hci_transport.c`) that carries legacy DFU over a
/// serial line, inside one SLIP frame each: a 4-byte header, the payload, and a CRC-16.
///
/// Header: byte 0 holds the sequence number (bits 0–2), the acknowledgement number (bits 3–5:
/// the sequence number the sender expects next), the data integrity flag (bit 6: a CRC follows
/// the payload) and the reliable flag (bit 7: the packet must be acknowledged); byte 1 holds the
/// packet type (bits 0–3: 14 for a vendor-specific packet carrying DFU, 0 for an acknowledgement)
/// and the low 4 bits of the payload length; byte 2 the length's high 8 bits; byte 3 makes the
/// four header bytes add up to 0 (mod 256). The CRC-16/CCITT-FALSE (polynomial 0x1021, initial
/// value 0xFFFF) of header and payload follows, least significant byte first.
///
/// The bootloader acknowledges each reliable packet with a 4-byte header alone (type 0, no flags,
/// sequence 0) whose acknowledgement number is the next sequence number it expects.
public struct HCIPacket: Sendable, Hashable {
    /// The packet type of DFU packets (vendor specific).
    public static let vendorSpecificType: UInt8 = 14
    /// The packet type of an acknowledgement.
    public static let acknowledgementType: UInt8 = 0
    /// The header's size.
    public static let headerSize = 4
    /// The CRC's size.
    public static let crcSize = 2
    /// The largest payload the 12-bit length field can name.
    public static let maximumLengthField = 0xFFF

    /// Sequence number, 0–7.
    public var sequenceNumber: UInt8
    /// The sequence number the sender expects next, 0–7.
    public var acknowledgementNumber: UInt8
    /// A CRC-16 follows the payload.
    public var hasDataIntegrityCheck: Bool
    /// The packet must be acknowledged.
    public var isReliable: Bool
    /// The packet type, 0–15.
    public var type: UInt8
    /// The payload.
    public var payload: [UInt8]

    /// Creates a packet; numbers are taken modulo 8, the type modulo 16.
    public init(
        sequenceNumber: UInt8, acknowledgementNumber: UInt8, hasDataIntegrityCheck: Bool, isReliable: Bool, type: UInt8, payload: [UInt8]
    ) {
        self.sequenceNumber = sequenceNumber & 0x07
        self.acknowledgementNumber = acknowledgementNumber & 0x07
        self.hasDataIntegrityCheck = hasDataIntegrityCheck
        self.isReliable = isReliable
        self.type = type & 0x0F
        self.payload = payload
    }

    /// A reliable DFU packet with a CRC, as a host sends it: its acknowledgement number is
    /// `sequenceNumber + 1`, as adafruit-nrfutil's and the SDK's are.
    public static func dfu(sequenceNumber: UInt8, payload: [UInt8]) -> HCIPacket {
        HCIPacket(
            sequenceNumber: sequenceNumber, acknowledgementNumber: sequenceNumber &+ 1, hasDataIntegrityCheck: true, isReliable: true,
            type: vendorSpecificType, payload: payload)
    }

    /// The acknowledgement a bootloader sends: `expecting` is the next sequence number it takes.
    public static func acknowledgement(expecting: UInt8) -> HCIPacket {
        HCIPacket(
            sequenceNumber: 0, acknowledgementNumber: expecting, hasDataIntegrityCheck: false, isReliable: false, type: acknowledgementType,
            payload: [])
    }

    /// `n + 1` modulo 8.
    public static func next(_ number: UInt8) -> UInt8 { (number &+ 1) & 0x07 }

    /// Whether this is an acknowledgement (type 0).
    public var isAcknowledgement: Bool { type == Self.acknowledgementType }

    /// The packet's bytes before SLIP framing: header, payload, and the CRC when
    /// ``hasDataIntegrityCheck`` is set.
    ///
    /// - Throws: ``HCIPacketError`` when the payload is longer than the 12-bit length field.
    public func encoded() throws(HCIPacketError) -> [UInt8] {
        guard payload.count <= Self.maximumLengthField else { throw HCIPacketError(.payloadTooLong, "a payload of \(payload.count) bytes") }
        let length = payload.count
        var bytes: [UInt8] = [
            sequenceNumber | acknowledgementNumber << 3 | (hasDataIntegrityCheck ? 0x40 : 0) | (isReliable ? 0x80 : 0),
            type | UInt8(truncatingIfNeeded: length & 0x0F) << 4,
            UInt8(truncatingIfNeeded: length >> 4),
        ]
        bytes.append(Self.headerChecksum(bytes[0], bytes[1], bytes[2]))
        bytes.reserveCapacity(Self.headerSize + length + Self.crcSize)
        bytes += payload
        if hasDataIntegrityCheck {
            let crc = Self.crc(bytes)
            bytes += [UInt8(truncatingIfNeeded: crc), UInt8(truncatingIfNeeded: crc >> 8)]
        }
        return bytes
    }

    /// Reads a packet from one SLIP frame's bytes; the sizes are checked before anything is
    /// copied, so a damaged or hostile frame costs no more than its own length.
    ///
    /// - Parameter maximumPayload: the longest payload accepted.
    /// - Throws: ``HCIPacketError``: shorter than a header, a header checksum that does not add
    ///   up, a length field beyond `maximumPayload` or other than the bytes present, a CRC mismatch.
    public static func decode(_ frame: [UInt8], maximumPayload: Int) throws(HCIPacketError) -> HCIPacket {
        guard frame.count >= headerSize else {
            throw HCIPacketError(.truncated, "\(frame.count) bytes, less than the \(headerSize)-byte header")
        }
        guard headerChecksum(frame[0], frame[1], frame[2]) == frame[3] else {
            throw HCIPacketError(.headerChecksum, "header \(hex(frame.prefix(headerSize)))")
        }
        let length = Int(frame[1] >> 4) | Int(frame[2]) << 4
        guard length <= maximumPayload else {
            throw HCIPacketError(.payloadTooLong, "the header names a payload of \(length) bytes, more than the \(maximumPayload) accepted")
        }
        let integrity = frame[0] & 0x40 != 0
        let expected = headerSize + length + (integrity ? crcSize : 0)
        guard frame.count == expected else {
            throw HCIPacketError(.lengthMismatch, "the header names a payload of \(length) bytes: \(expected) bytes expected, \(frame.count) came")
        }
        if integrity {
            let crc = UInt16(frame[expected - 2]) | UInt16(frame[expected - 1]) << 8
            let computed = Self.crc(frame[..<(expected - crcSize)])
            guard crc == computed else {
                throw HCIPacketError(.crcMismatch, "CRC \(hex4(crc)) received, \(hex4(computed)) computed")
            }
        }
        return HCIPacket(
            sequenceNumber: frame[0], acknowledgementNumber: frame[0] >> 3, hasDataIntegrityCheck: integrity, isReliable: frame[0] & 0x80 != 0,
            type: frame[1], payload: Array(frame[headerSize..<(headerSize + length)]))
    }

    /// The byte that makes the header's four bytes add up to 0 (mod 256).
    static func headerChecksum(_ first: UInt8, _ second: UInt8, _ third: UInt8) -> UInt8 {
        0 &- (first &+ second &+ third)
    }

    /// CRC-16/CCITT-FALSE: the CRC-16/XMODEM table from 0xFFFF (the SDK's `crc16_compute`).
    static func crc(_ bytes: some Sequence<UInt8>) -> UInt16 { CRC16XMODEM.checksum(bytes, seed: 0xFFFF) }

    private static func hex(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined(separator: " ")
    }

    private static func hex4(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
    }
}

/// Why bytes are not an HCI packet.
public struct HCIPacketError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public enum Kind: Sendable, Hashable {
        /// Shorter than a header.
        case truncated
        /// The header's four bytes do not add up to 0.
        case headerChecksum
        /// The length field names more than is accepted (or a payload longer than 4095 bytes was given).
        case payloadTooLong
        /// The length field disagrees with the bytes present.
        case lengthMismatch
        /// The CRC-16 differs from the one computed.
        case crcMismatch
    }

    /// What is wrong.
    public var kind: Kind
    /// The details.
    public var detail: String

    /// Creates an error.
    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    /// `not an HCI packet (header checksum): header c9 4e 00 e9`.
    public var description: String {
        let name: String
        switch kind {
        case .truncated: name = "truncated"
        case .headerChecksum: name = "header checksum"
        case .payloadTooLong: name = "payload too long"
        case .lengthMismatch: name = "length mismatch"
        case .crcMismatch: name = "CRC mismatch"
        }
        return "not an HCI packet (\(name)): \(detail)"
    }
}
