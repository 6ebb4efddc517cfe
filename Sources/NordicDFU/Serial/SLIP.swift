/// SLIP framing (RFC 1055) as Nordic's serial DFU uses it: a frame ends with END (0xC0); END and
/// ESC (0xDB) inside it are sent as ESC 0xDC and ESC 0xDD. No END starts a frame.
public enum SLIP {
    /// Ends a frame.
    public static let end: UInt8 = 0xC0
    /// Starts an escape.
    public static let escape: UInt8 = 0xDB
    /// ESC then this stands for END.
    public static let escapedEnd: UInt8 = 0xDC
    /// ESC then this stands for ESC.
    public static let escapedEscape: UInt8 = 0xDD

    /// `frame` escaped and terminated by END.
    public static func encode(_ frame: [UInt8]) -> [UInt8] {
        var encoded: [UInt8] = []
        encoded.reserveCapacity(frame.count + frame.count / 16 + 1)
        for byte in frame {
            switch byte {
            case end: encoded += [escape, escapedEnd]
            case escape: encoded += [escape, escapedEscape]
            default: encoded.append(byte)
            }
        }
        encoded.append(end)
        return encoded
    }

    /// The longest encoding of a frame of `count` bytes: every byte escaped, plus END.
    public static func maximumEncodedSize(ofFrame count: Int) -> Int { 2 * count + 1 }
}

/// Reassembles SLIP frames from bytes as they arrive, bounded: a frame longer than
/// ``maximumFrameSize`` decoded bytes is dropped, and so is one with an invalid escape (ESC
/// followed by anything but 0xDC or 0xDD); decoding resumes after the next END. Empty frames
/// (END END) are skipped.
public struct SLIPDecoder: Sendable {
    /// Frames dropped and why.
    public struct Statistics: Sendable, Hashable {
        /// Frames delivered.
        public var frames = 0
        /// Frames dropped for an invalid escape.
        public var invalidEscapes = 0
        /// Frames dropped for being longer than the limit.
        public var oversized = 0

        /// No frames yet.
        public init() {}
    }

    /// The longest frame (decoded) accepted.
    public let maximumFrameSize: Int
    /// What was decoded and dropped.
    public private(set) var statistics = Statistics()

    private var frame: [UInt8] = []
    private var state = State.decoding

    private enum State {
        case decoding
        case escaped
        /// Skipping to the next END after an invalid escape or an oversized frame.
        case discarding
    }

    /// A decoder for frames of at most `maximumFrameSize` bytes.
    public init(maximumFrameSize: Int) {
        self.maximumFrameSize = max(1, maximumFrameSize)
    }

    /// Feeds received bytes; returns the frames they complete.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [[UInt8]] {
        var frames: [[UInt8]] = []
        for byte in bytes {
            switch state {
            case .discarding:
                if byte == SLIP.end { reset() }
            case .escaped:
                switch byte {
                case SLIP.escapedEnd: append(SLIP.end)
                case SLIP.escapedEscape: append(SLIP.escape)
                default:
                    statistics.invalidEscapes += 1
                    // An END right after ESC still ends the (damaged) frame.
                    if byte == SLIP.end { reset() } else { discard() }
                }
            case .decoding:
                switch byte {
                case SLIP.end:
                    if !frame.isEmpty {
                        frames.append(frame)
                        statistics.frames += 1
                    }
                    reset()
                case SLIP.escape:
                    state = .escaped
                default:
                    append(byte)
                }
            }
        }
        return frames
    }

    /// Forgets a frame in progress.
    public mutating func reset() {
        frame.removeAll(keepingCapacity: true)
        state = .decoding
    }

    private mutating func append(_ byte: UInt8) {
        guard frame.count < maximumFrameSize else {
            statistics.oversized += 1
            discard()
            return
        }
        frame.append(byte)
        state = .decoding
    }

    private mutating func discard() {
        frame.removeAll(keepingCapacity: true)
        state = .discarding
    }
}
