import SMPConsoleFraming

/// The properties every input is checked against, shared by the libFuzzer entry point and the
/// replay driver. A violation stops the process, which libFuzzer reports as a crash with the
/// input saved.
///
/// For any byte stream:
/// - the decoder neither crashes nor hangs, and its statistics add up: every byte is counted
///   once, every delivered message once, no more packets end (delivered or dropped) than 06 09
///   markers began, no more orphans than there are 04 14 markers;
/// - chunking does not matter: the whole input at once, one byte at a time, and pseudo-random
///   chunk sizes give the same messages and the same statistics;
/// - decoding is the inverse of encoding: every delivered message, re-encoded in both line styles
///   and several line lengths, decodes to the same messages with no error;
/// - noise never hides a later frame: after the input, a good frame is delivered.
enum FramingCheck {
    /// The message encoded after each input to check resynchronisation (an SMP echo request).
    static let probe: [UInt8] = [
        0x0A, 0x00, 0x00, 0x09, 0x00, 0x00, 0x42, 0x00, 0xA1, 0x61, 0x64, 0x65, 0x68, 0x65, 0x6C, 0x6C, 0x6F,
    ]

    /// Checks one input; traps on a violated property.
    static func run(_ input: [UInt8]) {
        for limits in [(65_535 + 8, 8192), (380, 127)] {
            var decoder = SerialFrameDecoder(maximumMessageSize: limits.0, maximumLineLength: limits.1)
            let messages = decoder.feed(input)
            checkStatistics(decoder.statistics, messages, input, maximumMessageSize: limits.0)
            checkChunkings(input, limits: limits, expected: messages, statistics: decoder.statistics)
            checkResynchronisation(after: &decoder, messages: messages)
            if limits.0 > 380 { checkReencoding(messages) }
        }
    }

    private static func checkStatistics(
        _ statistics: SerialFrameDecoder.Statistics, _ messages: [[UInt8]], _ input: [UInt8], maximumMessageSize: Int
    ) {
        require(statistics.bytes == input.count, "counted \(statistics.bytes) of \(input.count) bytes: \(statistics)")
        require(statistics.packets == messages.count, "\(messages.count) messages but \(statistics)")
        let counters = [
            statistics.consoleBytes, statistics.lineBytes, statistics.crcErrors, statistics.lengthErrors,
            statistics.base64Errors, statistics.orphanContinuations, statistics.oversizeLines,
            statistics.abandonedPackets,
        ]
        require(counters.allSatisfy { $0 >= 0 }, "negative counter: \(statistics)")
        let starts = markers(0x06, 0x09, in: input)
        require(
            statistics.packets + statistics.droppedPackets <= starts,
            "\(starts) start markers but \(statistics)")
        require(
            statistics.orphanContinuations <= markers(0x04, 0x14, in: input),
            "more orphans than continuation markers: \(statistics)")
        require(statistics.lineBytes >= 2 * (statistics.packets + statistics.orphanContinuations), "\(statistics)")
        for message in messages {
            require(message.count <= maximumMessageSize, "a \(message.count)-byte message passed the limit")
        }
    }

    private static func checkChunkings(
        _ input: [UInt8], limits: (Int, Int), expected: [[UInt8]], statistics: SerialFrameDecoder.Statistics
    ) {
        var random = SplitMix64(seed: UInt64(truncatingIfNeeded: input.count) &* 0x9E37_79B9 ^ seed(of: input))
        let chunkings: [() -> Int] = [
            { 1 },
            { 3 },
            { 1 + random.below(7) },
            { 1 + random.below(200) },
        ]
        for (number, nextSize) in chunkings.enumerated() {
            var decoder = SerialFrameDecoder(maximumMessageSize: limits.0, maximumLineLength: limits.1)
            var messages: [[UInt8]] = []
            var offset = 0
            while offset < input.count {
                let end = min(input.count, offset + nextSize())
                if number == 3 && end - offset > 4 {
                    // A sequence without contiguous storage takes the other path into the decoder.
                    messages += decoder.feed(input[offset..<end].lazy.map { $0 })
                } else {
                    messages += decoder.feed(input[offset..<end])
                }
                offset = end
            }
            require(
                messages == expected,
                "chunking \(number) gave \(messages.count) messages, whole input \(expected.count)")
            require(
                decoder.statistics == statistics,
                "chunking \(number) counted \(decoder.statistics), whole input \(statistics)")
        }
    }

    /// Whatever state the input left the decoder in, a complete frame that follows is delivered.
    private static func checkResynchronisation(after decoder: inout SerialFrameDecoder, messages: [[UInt8]]) {
        let before = decoder.statistics
        let delivered = decoder.feed(SerialFrameEncoder().encode(probe))
        require(delivered == [probe], "a frame after the input gave \(delivered.count) messages")
        require(decoder.statistics.packets == before.packets + 1, "\(decoder.statistics)")
        decoder.reset()
        let afterReset = decoder.feed(SerialFrameEncoder(lineLength: 16, style: .zephyrDevice).encode(probe))
        require(afterReset == [probe], "a frame after reset() gave \(afterReset.count) messages")
    }

    /// Every delivered message, re-encoded, decodes to itself.
    private static func checkReencoding(_ messages: [[UInt8]]) {
        guard !messages.isEmpty else { return }
        for encoder in [
            SerialFrameEncoder(), SerialFrameEncoder(style: .zephyrDevice),
            SerialFrameEncoder(lineLength: 16), SerialFrameEncoder(lineLength: 23, style: .zephyrDevice),
            SerialFrameEncoder(lineLength: 8192),
        ] {
            var stream: [UInt8] = []
            for message in messages { stream += encoder.encode(message) }
            var decoder = SerialFrameDecoder()
            let again = decoder.feed(stream)
            require(again == messages, "re-encoding (\(encoder.lineLength), \(encoder.style)) changed the messages")
            var clean = SerialFrameDecoder.Statistics()
            clean.packets = messages.count
            clean.lineBytes = stream.count
            require(decoder.statistics == clean, "re-encoded frames counted \(decoder.statistics)")
        }
    }

    private static func markers(_ first: UInt8, _ second: UInt8, in input: [UInt8]) -> Int {
        guard input.count >= 2 else { return 0 }
        var count = 0
        for index in 1..<input.count where input[index - 1] == first && input[index] == second { count += 1 }
        return count
    }

    private static func seed(of input: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in input.prefix(64) { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return hash
    }

    private static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError(message()) }
    }
}

/// SplitMix64, for reproducible chunk sizes (the fuzzer cannot use the tests' support module).
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &self) }
}
