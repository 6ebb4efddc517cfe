/// How fast console lines may be written to a device that receives them into a few fixed line
/// buffers and drops what arrives while they are full (Zephyr's UART and shell transports: two
/// buffers by default, `CONFIG_UART_MCUMGR_RX_BUF_COUNT`).
///
/// At most ``burst`` lines are written within any span of ``gap``: a burst of lines back to back,
/// then a pause while the device works through them. A burst of 0 writes without pacing.
public struct LinePacing: Sendable, Hashable, CustomStringConvertible {
    /// Lines written back to back; 0 means no pacing.
    public var burst: Int
    /// The span in which at most `burst` lines are written.
    public var gap: Duration

    /// Creates a pacing; a negative burst counts as 0 (no pacing).
    public init(burst: Int, gap: Duration) {
        self.burst = max(0, burst)
        self.gap = max(.zero, gap)
    }

    /// What a device is assumed to take until it is known better: Zephyr's default of two line
    /// buffers, emptied within 20 ms (measured on Zephyr 4.4 native_sim, whose UART is polled every
    /// 10 ms; a real UART at 115200 baud carries about two 127-byte lines in that time anyway).
    public static let zephyrDefault = LinePacing(burst: 2, gap: .milliseconds(20))

    /// No pacing: lines are written as fast as the stream takes them.
    public static let unpaced = LinePacing(burst: 0, gap: .zero)

    /// Whether lines are written without pauses.
    public var isUnpaced: Bool { burst == 0 || gap == .zero }

    /// The slowest pacing a loss leads to: one line per 80 ms (about 1.5 KB/s of console lines).
    /// A device that needs more is told so with `?burst=` and `?gap=`; losses that slowing down
    /// does not cure (noise, a device that stopped) must not make every later line crawl.
    public static let slowest = LinePacing(burst: 1, gap: .milliseconds(80))

    /// What to try after a loss: half the burst, then one line per gap, then twice the gap, down
    /// to ``slowest``.
    public var slower: LinePacing {
        if isUnpaced { return .zephyrDefault }
        if burst > 1 { return LinePacing(burst: burst / 2, gap: gap) }
        return LinePacing(burst: 1, gap: gap >= Self.slowest.gap ? gap : min(Self.slowest.gap, gap * 2))
    }

    public var description: String {
        isUnpaced ? "unpaced" : "\(burst) line\(burst == 1 ? "" : "s") per \(Int((gap.seconds * 1000).rounded())) ms"
    }
}

/// A transport whose messages go out as console lines that the device may drop when they come
/// too fast: its ``LinePacing`` can be read, learned (see ``SMPClient/tuneLinePacing()``) and set.
public protocol SMPLinePacedTransport: SMPTransport {
    /// The pacing in force.
    var linePacing: LinePacing { get }
    /// Whether the pacing is known for this device (given by the user, remembered from an earlier
    /// session, or learned on this link), so that it need not be learned again.
    var linePacingIsSettled: Bool { get }
    /// How many lines a message of `size` bytes takes.
    func lineCount(forMessageOfSize size: Int) -> Int
    /// Sets the pacing; `settled` marks it as known for this device (and lets the transport
    /// remember it for the next session).
    func setLinePacing(_ pacing: LinePacing, settled: Bool)
    /// After a request was lost: writes more slowly from now on and says how, in a few words
    /// (e.g. "writing console lines more slowly (1 line per 20 ms)"); nil when it cannot go slower.
    func slowDownAfterLoss() -> String?
}

extension SMPLinePacedTransport {
    /// ``LinePacing/slower`` console lines, settled.
    public func slowConsoleLinesAfterLoss() -> String? {
        let slower = linePacing.slower
        guard slower != linePacing else { return nil }
        setLinePacing(slower, settled: true)
        return "writing console lines more slowly (\(slower))"
    }

    public func slowDownAfterLoss() -> String? { slowConsoleLinesAfterLoss() }
}
