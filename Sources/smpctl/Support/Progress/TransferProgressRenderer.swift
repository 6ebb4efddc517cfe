import FoundationEssentials
import JSON
import SMP
import Synchronization

/// Shows a transfer's progress (image, file, SUIT uploads and file downloads) on standard error as
/// ``ProgressDisplay`` says: a live bar fitted to the terminal (percent, bytes, speed, ETA) with a
/// spinner while the first chunk is waited for (the device erases), a line every 10 % in plain
/// mode, or nothing; or JSON progress events on standard output with `--json` (whatever the mode).
/// Announcements and events go through `output` (a device's, within a many-device run).
/// `label` (e.g. "image 1/2") prefixes the bar and lines; `context` adds members to JSON events.
final class TransferProgressRenderer: Sendable {
    private let output: Output
    private let json: Bool
    private let announcement: String?
    private let label: String
    private let context: [(String, JSONValue)]
    private let mode: ProgressMode
    private let state = Mutex(State())

    /// What changes as reports arrive.
    private struct State {
        var latest: UploadProgress?
        var shownStep = -1
        var lastDrawn = ContinuousClock.now
        var drewBar = false
        var spinner: WaitSpinner?
    }

    /// - Parameters:
    ///   - output: where announcements and JSON events go.
    ///   - events: whether to write JSON progress events instead of a bar (default: `output.json`).
    init(
        output: Output, events: Bool? = nil, announcement: String?, label: String = "", context: [(String, JSONValue)] = [],
        mode: ProgressMode = ProgressDisplay.mode
    ) {
        self.output = output
        self.json = events ?? output.json
        self.announcement = announcement
        self.label = label
        self.context = context
        self.mode = mode
    }

    /// The latest progress.
    var last: UploadProgress? { state.withLock { $0.latest } }

    /// Announces the transfer and, with a bar, spins until the first chunk is answered (the
    /// device erases the slot or opens the file meanwhile).
    func start() {
        guard !json else { return }
        if let announcement { output.info(announcement) }
        guard mode == .bar else { return }
        let spinner = WaitSpinner((label.isEmpty ? "" : label + "  ") + "waiting for the device to take the first chunk", mode: mode)
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
                let now = ContinuousClock.now
                guard done || !state.drewBar || now - state.lastDrawn >= .milliseconds(100) else { return }
                state.lastDrawn = now
                state.drewBar = true
                let width = TerminalWidth.columns() ?? TerminalWidth.fallback
                Output.write("\r" + ProgressLayout.bar(progress, label: label, width: width) + "\u{1B}[K", to: .standardError)
            case .plain:
                let step = Int(progress.fraction * 10)
                guard step != state.shownStep else { return }
                state.shownStep = step
                Output.status((label.isEmpty ? "" : label + "  ") + ProgressLayout.plain(progress))
            case .none:
                break
            }
        }
    }

    /// Ends the live bar (and a spinner still waiting).
    func finish() {
        state.withLock { state in
            state.spinner?.stop()
            state.spinner = nil
            if state.drewBar { Output.write("\n", to: .standardError) }
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
