import SMP

/// Finds bare SMP messages in a byte stream (``SerialFraming/raw``): each message is its 8-byte
/// header followed by as many payload bytes as the header's length says.
///
/// Nothing marks where a message starts, so a header is trusted only when it is plausible: an
/// operation from 0 to 3, version bits 0 or 1, reserved bits and flags clear (SMP defines no
/// flags), and a payload no longer than ``maximumMessageSize`` allows. Anything else is skipped a byte at a time until a plausible
/// header lines up again (counted as console bytes). Memory stays bounded: at most one message
/// is held. Feeding is chunking-independent.
public struct RawMessageDecoder: Sendable {
    /// The largest message (header included) delivered.
    public let maximumMessageSize: Int
    /// What has been seen: delivered messages in ``SerialFrameDecoder/Statistics/packets``,
    /// message bytes in `lineBytes`, skipped bytes in `consoleBytes`, implausible headers in
    /// `lengthErrors`.
    public private(set) var statistics = SerialFrameDecoder.Statistics()

    private var pending: [UInt8] = []

    /// A decoder delivering messages of at most `maximumMessageSize` bytes (header included).
    public init(maximumMessageSize: Int = SMPHeader.size + Int(UInt16.max)) {
        self.maximumMessageSize = max(SMPHeader.size, maximumMessageSize)
    }

    /// Feeds received bytes; returns the complete messages, in order.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [[UInt8]] {
        var messages: [[UInt8]] = []
        for byte in bytes {
            pending.append(byte)
            while let message = nextMessage() { messages.append(message) }
        }
        return messages
    }

    /// Discards a partial message (e.g. after reopening the port). The statistics stay.
    public mutating func reset() {
        statistics.consoleBytes += pending.count
        pending.removeAll(keepingCapacity: false)
    }

    /// Whether part of a message has arrived and waits for the rest.
    public var hasPartialMessage: Bool { !pending.isEmpty }

    /// Takes one message off the front of `pending`, skipping implausible bytes.
    private mutating func nextMessage() -> [UInt8]? {
        while pending.count >= SMPHeader.size {
            guard let total = Self.plausibleLength(of: pending), total <= maximumMessageSize else {
                statistics.lengthErrors += 1
                statistics.consoleBytes += 1
                pending.removeFirst()
                continue
            }
            guard pending.count >= total else { return nil }
            let message = Array(pending.prefix(total))
            pending.removeFirst(total)
            statistics.packets += 1
            statistics.lineBytes += total
            return message
        }
        return nil
    }

    /// The whole message's length if `bytes` start with a plausible SMP header.
    static func plausibleLength(of bytes: [UInt8]) -> Int? {
        let first = bytes[0]
        guard first & 0xE0 == 0, (first >> 3) & 0x03 <= 1, first & 0x07 <= 3, bytes[1] == 0 else { return nil }
        return SMPHeader.size + (Int(bytes[2]) << 8 | Int(bytes[3]))
    }
}
