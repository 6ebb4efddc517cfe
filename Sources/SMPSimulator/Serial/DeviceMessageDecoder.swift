import SMPConsoleFraming

/// The device's side of a serial framing: console lines (``SerialFrameDecoder``, also under the
/// shell) or bare messages (``RawMessageDecoder``), behind one interface for the server.
enum DeviceMessageDecoder: Sendable {
    case lines(SerialFrameDecoder)
    case raw(RawMessageDecoder)

    /// A decoder for `framing` that keeps requests of at most `maximumMessageSize` bytes (the SMP
    /// message: header and payload).
    init(framing: SerialFraming, maximumMessageSize: Int) {
        switch framing {
        case .raw: self = .raw(RawMessageDecoder(maximumMessageSize: maximumMessageSize))
        case .console, .shell: self = .lines(SerialFrameDecoder(maximumMessageSize: maximumMessageSize))
        }
    }

    /// Feeds received bytes; returns the complete messages, in order.
    mutating func feed(_ bytes: [UInt8]) -> [[UInt8]] {
        switch self {
        case .lines(var decoder):
            let messages = decoder.feed(bytes)
            self = .lines(decoder)
            return messages
        case .raw(var decoder):
            let messages = decoder.feed(bytes)
            self = .raw(decoder)
            return messages
        }
    }

    /// Whether part of a raw message waits for the rest (console lines: never, here).
    var hasPartialMessage: Bool {
        if case .raw(let decoder) = self { return decoder.hasPartialMessage }
        return false
    }

    /// Discards a partial packet (the host closed the link); the statistics stay.
    mutating func reset() {
        switch self {
        case .lines(var decoder):
            decoder.reset()
            self = .lines(decoder)
        case .raw(var decoder):
            decoder.reset()
            self = .raw(decoder)
        }
    }

    /// What the decoder has seen.
    var statistics: SerialFrameDecoder.Statistics {
        switch self {
        case .lines(let decoder): decoder.statistics
        case .raw(let decoder): decoder.statistics
        }
    }
}
