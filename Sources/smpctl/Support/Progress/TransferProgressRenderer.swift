import FoundationEssentials
import JSON
import SMP
import Synchronization

/// Shows a transfer's progress (image, file, SUIT uploads and file downloads) on standard error as
/// ``ProgressDisplay`` says: a live bar fitted to the terminal (label, percent, bytes, speed, ETA)
/// with a spinner while the first chunk is waited for, wiped when the transfer ends; a line every
/// ``plainInterval`` in plain mode (none for a transfer that ends sooner); or nothing. The
/// command's result line then says what was transferred, once. With `--json`, JSON progress
/// events on standard output instead (whatever the mode). Events go through `output` (a
/// device's, within a many-device run); `context` adds members to them.
final class TransferProgressRenderer: Sendable {
    /// What the first wait of a transfer is for.
    enum FirstWait: String {
        /// The device erases the slot or opens the file before it answers the first chunk.
        case upload = "waiting for the device to take the first chunk"
        /// The device opens the file before it sends the first chunk.
        case download = "waiting for the first chunk"
    }

    /// How often plain mode prints a line while a transfer runs.
    static let plainInterval: Duration = .seconds(10)

    private let output: Output
    private let json: Bool
    private let label: String
    private let context: [(String, JSONValue)]
    private let mode: ProgressMode
    private let firstWait: FirstWait
    private let now: @Sendable () -> ContinuousClock.Instant
    private let state: Mutex<State>

    /// What changes as reports arrive.
    private struct State {
        var latest: UploadProgress?
        var shownStep = -1
        var lastDrawn: ContinuousClock.Instant
        var drewBar = false
        var spinner: WaitSpinner?
    }

    /// - Parameters:
    ///   - output: where JSON events go.
    ///   - events: whether to write JSON progress events instead of a bar (default: `output.json`).
    ///   - label: what is transferred (`/lfs1/log.txt`, `app.bin`), at the start of the bar and lines.
    ///   - now: the clock plain mode's lines are timed by.
    init(
        output: Output, events: Bool? = nil, label: String = "", context: [(String, JSONValue)] = [], firstWait: FirstWait = .upload,
        mode: ProgressMode = ProgressDisplay.mode, now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        self.output = output
        self.json = events ?? output.json
        self.label = label
        self.context = context
        self.mode = mode
        self.firstWait = firstWait
        self.now = now
        state = Mutex(State(lastDrawn: now()))
    }

    /// The latest progress.
    var last: UploadProgress? { state.withLock { $0.latest } }

    /// With a bar, spins until the first chunk is answered (the device erases the slot or opens
    /// the file meanwhile); plain mode's lines are timed from here.
    func start() {
        guard !json else { return }
        let started = now()
        state.withLock { $0.lastDrawn = started }
        guard mode == .bar else { return }
        let spinner = WaitSpinner((label.isEmpty ? "" : label + "  ") + firstWait.rawValue, mode: mode)
        state.withLock { $0.spinner = spinner }
    }

    /// Shows one progress report (throttled).
    func show(_ progress: UploadProgress) {
        state.withLock { state in
            state.latest = progress
            let done = progress.acknowledged == progress.total
            if json {
                let step = Int(progress.fraction * 100)
                guard step != state.shownStep || done else { return }
                state.shownStep = step
                output.write(document: Self.event(progress, context: context))
                return
            }
            switch mode {
            case .bar:
                guard progress.acknowledged > 0 || done else { return }
                state.spinner?.stop()
                state.spinner = nil
                let time = now()
                guard done || !state.drewBar || time - state.lastDrawn >= .milliseconds(100) else { return }
                state.lastDrawn = time
                state.drewBar = true
                let width = TerminalWidth.columns() ?? TerminalWidth.fallback
                Output.write("\r" + ProgressLayout.bar(progress, label: label, width: width) + "\u{1B}[K", to: .standardError)
            case .plain:
                let time = now()
                guard Self.plainLineIsDue(since: state.lastDrawn, at: time, done: done) else { return }
                state.lastDrawn = time
                Output.status((label.isEmpty ? "" : label + "  ") + ProgressLayout.plain(progress))
            case .none:
                break
            }
        }
    }

    /// Whether plain mode prints a line at `time`: once ``plainInterval`` has passed since the
    /// transfer started or the last line, and never for its end, which the result says.
    static func plainLineIsDue(since last: ContinuousClock.Instant, at time: ContinuousClock.Instant, done: Bool) -> Bool {
        !done && time - last >= plainInterval
    }

    /// Wipes the live bar (and a spinner still waiting): the result line says what was transferred.
    func finish() {
        state.withLock { state in
            state.spinner?.stop()
            state.spinner = nil
            if state.drewBar { Output.write("\r\u{1B}[K", to: .standardError) }
            state.drewBar = false
        }
    }

    /// A JSON progress event.
    static func event(_ progress: UploadProgress, context: [(String, JSONValue)] = []) -> JSONValue {
        .object([("event", .string("progress"))] + context + [
            ("acknowledged", .uint(progress.acknowledged)), ("total", .uint(progress.total)),
            ("bytesPerSecond", .rate(progress.bytesPerSecond)), ("chunks", .uint(UInt64(progress.chunksSent))),
            ("bytesSent", .uint(progress.bytesSent)), ("resumedFrom", progress.resumedFrom.map(JSONValue.uint) ?? .null),
        ])
    }

    /// A rate in KiB/s, or `--- KiB/s` before there is one.
    static func rate(_ bytesPerSecond: Double) -> String {
        bytesPerSecond > 0 ? String(printf: "%.1f KiB/s", bytesPerSecond / 1024) : "--- KiB/s"
    }

    /// A duration such as `4s` or `2m05s`.
    static func seconds(_ value: Double) -> String {
        guard value.isFinite else { return "--" }
        let whole = Int(value.rounded(.up))
        if value < 10 { return String(printf: "%.2fs", value) }
        return whole < 60 ? "\(whole)s" : String(printf: "%ldm%02lds", whole / 60, whole % 60)
    }
}
