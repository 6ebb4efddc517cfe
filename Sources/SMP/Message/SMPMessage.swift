import CBOR

/// A whole SMP message: header and CBOR payload (always a map).
public struct SMPMessage: Sendable, Hashable, CustomStringConvertible {
    /// The header; its `length` is set from the payload when encoding.
    public var header: SMPHeader
    /// The payload map.
    public var payload: CBORMap

    /// Creates a message.
    public init(header: SMPHeader, payload: CBORMap) {
        self.header = header
        self.payload = payload
    }

    /// Header and payload as bytes; the header length is the payload's encoded size.
    /// With `indefiniteContainers` the payload is written as Zephyr does (used by the simulator).
    public func encoded(indefiniteContainers: Bool = false) -> [UInt8] {
        var writer = CBORWriter(indefiniteContainers: indefiniteContainers)
        writer.write(.map(payload))
        var header = self.header
        header.length = UInt16(clamping: writer.bytes.count)
        return header.bytes + writer.bytes
    }

    /// Decodes the message at the start of `bytes`, returning it and the number of bytes it took.
    public static func decodePrefix(_ bytes: ArraySlice<UInt8>) throws(SMPFrameError) -> (message: SMPMessage, consumed: Int) {
        let header = try SMPHeader(decoding: bytes)
        let total = SMPHeader.size + Int(header.length)
        guard bytes.count >= total else {
            throw .lengthMismatch(declared: Int(header.length), available: bytes.count - SMPHeader.size)
        }
        let start = bytes.startIndex + SMPHeader.size
        let payloadBytes = Array(bytes[start..<start + Int(header.length)])
        let item: CBOR
        do {
            item = try CBORDecoder().decode(payloadBytes)
        } catch {
            throw .invalidCBOR(error.description)
        }
        guard case .map(let map) = item else { throw .payloadNotAMap(item.typeName) }
        return (SMPMessage(header: header, payload: map), total)
    }

    /// Decodes a message that must fill `bytes` exactly.
    public init(decoding bytes: [UInt8]) throws(SMPFrameError) {
        let (message, consumed) = try Self.decodePrefix(bytes[...])
        guard consumed == bytes.count else {
            throw .lengthMismatch(declared: Int(message.header.length), available: bytes.count - SMPHeader.size)
        }
        self = message
    }

    public var description: String { "\(header) \(CBOR.map(payload).diagnosticDescription)" }
}
