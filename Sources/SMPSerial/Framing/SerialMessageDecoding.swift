/// Turns a link's received bytes into SMP messages: console lines (``SerialFrameDecoder``) or
/// bare messages (``RawMessageDecoder``).
protocol SerialMessageDecoding: Sendable {
    /// Feeds received bytes; returns the complete messages, in order.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> [[UInt8]]
    /// Discards a partial packet or message; the statistics stay.
    mutating func reset()
    /// What the decoder has seen.
    var statistics: SerialFrameDecoder.Statistics { get }
}

extension SerialFrameDecoder: SerialMessageDecoding {}
extension RawMessageDecoder: SerialMessageDecoding {}

extension SerialFraming {
    /// A new decoder for this framing.
    func makeDecoder() -> any SerialMessageDecoding {
        self == .raw ? RawMessageDecoder() : SerialFrameDecoder()
    }
}
