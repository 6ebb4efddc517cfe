import SMP

/// Splitting SMP messages into ATT writes and joining notifications back into messages
/// (docs/protocol/ble.md §15.4).
public enum BLEFragmentation {
    /// The payload one ATT write or notification carries: the ATT MTU minus the 3-byte header.
    public static func payloadSize(mtu: Int) -> Int { max(1, mtu - 3) }

    /// A message's fragments of at most `payloadSize` bytes each, in order. They must be written
    /// back to back, without another message's fragments between them.
    public static func fragments(of message: [UInt8], payloadSize: Int) -> [ArraySlice<UInt8>] {
        precondition(payloadSize > 0, "a fragment holds at least one byte")
        return stride(from: 0, to: message.count, by: payloadSize).map { start in
            message[start..<min(start + payloadSize, message.count)]
        }
    }
}

/// Joins notification payloads into whole SMP messages using the length in each 8-byte header.
///
/// A payload that cannot begin a header (reserved bits set, or an unknown operation) while no
/// message is under way is junk and is dropped, as is a partial message that such junk follows.
public struct SMPReassembler: Sendable {
    private var buffer: [UInt8] = []

    /// Bytes held towards the next message.
    public var pendingByteCount: Int { buffer.count }

    /// Bytes dropped as junk so far.
    public private(set) var discardedByteCount = 0

    /// Creates an empty reassembler.
    public init() {}

    /// Adds one notification's payload; returns the messages it completes.
    public mutating func append(_ payload: some Collection<UInt8>) -> [[UInt8]] {
        if buffer.isEmpty, let first = payload.first, !Self.canStartHeader(first) {
            discardedByteCount += payload.count
            return []
        }
        buffer.append(contentsOf: payload)
        var messages: [[UInt8]] = []
        while buffer.count >= SMPHeader.size {
            guard Self.canStartHeader(buffer[0]) else {
                discardedByteCount += buffer.count
                buffer.removeAll()
                break
            }
            let total = SMPHeader.size + (Int(buffer[2]) << 8 | Int(buffer[3]))
            guard buffer.count >= total else { break }
            messages.append(Array(buffer[..<total]))
            buffer.removeFirst(total)
        }
        return messages
    }

    /// Forgets a partial message (after the link dropped).
    public mutating func reset() {
        buffer.removeAll()
    }

    /// Whether a byte can be the first of an SMP header: reserved bits 5–7 clear, a known operation.
    static func canStartHeader(_ byte: UInt8) -> Bool {
        byte & 0xE0 == 0 && SMPOperation(rawValue: byte & 0x07) != nil
    }
}
