import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import SMP
import Synchronization

/// Shows a transfer's progress (image, file, SUIT uploads and file downloads): a live bar on a terminal (bytes, %, speed, ETA), a line every 10 %
/// otherwise (both on standard error), or JSON progress events on standard output with `--json`.
/// `label` (e.g. "image 1/2") prefixes the bar and lines; `context` adds members to JSON events.
final class TransferProgressRenderer: Sendable {
    private let json: Bool
    private let announcement: String?
    private let label: String
    private let context: [(String, JSONValue)]
    private let terminal = isatty(STDERR_FILENO) == 1
    private let state = Mutex(State())

    /// What changes as reports arrive.
    private struct State {
        var latest: UploadProgress?
        var shownStep = -1
        var lastDrawn = ContinuousClock.now
        var drewBar = false
    }

    init(json: Bool, announcement: String?, label: String = "", context: [(String, JSONValue)] = []) {
        self.json = json
        self.announcement = announcement
        self.label = label.isEmpty ? "" : label + "  "
        self.context = context
    }

    /// The latest progress.
    var last: UploadProgress? { state.withLock { $0.latest } }

    /// Announces the upload.
    func start() {
        guard !json, let announcement else { return }
        Output.status(announcement)
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
                Output.write(Self.event(progress, context: context).documentLine(), to: .standardOutput)
            } else if terminal {
                let now = ContinuousClock.now
                guard done || now - state.lastDrawn >= .milliseconds(100) else { return }
                state.lastDrawn = now
                state.drewBar = true
                Output.write("\r" + label + Self.bar(progress) + "\u{1B}[K", to: .standardError)
            } else {
                let step = Int(progress.fraction * 10)
                guard step != state.shownStep else { return }
                state.shownStep = step
                Output.status(label + Self.line(progress))
            }
        }
    }

    /// Ends the live bar.
    func finish() {
        state.withLock { state in
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

    /// `[#########-----------]  45%  90.0/200.0 KiB  120.0 KiB/s  ETA 1s`
    static func bar(_ progress: UploadProgress, width: Int = 24) -> String {
        let filled = min(width, Int(progress.fraction * Double(width)))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let eta = progress.secondsRemaining.map { "ETA \(seconds($0))" } ?? "ETA --"
        return "[\(bar)] \(line(progress))  \(eta)"
    }

    /// `45%  90.0/200.0 KiB  120.0 KiB/s`
    static func line(_ progress: UploadProgress) -> String {
        let percent = String(format: "%3d%%", Int(progress.fraction * 100))
        return "\(percent)  \(kibibytes(progress.acknowledged))/\(kibibytes(progress.total)) KiB  \(rate(progress.bytesPerSecond))"
    }

    /// A rate in KiB/s, or `--- KiB/s` before there is one.
    static func rate(_ bytesPerSecond: Double) -> String {
        bytesPerSecond > 0 ? String(format: "%.1f KiB/s", bytesPerSecond / 1024) : "--- KiB/s"
    }

    /// A duration such as `4s` or `2m05s`.
    static func seconds(_ value: Double) -> String {
        guard value.isFinite else { return "--" }
        let whole = Int(value.rounded(.up))
        if value < 10 { return String(format: "%.2fs", value) }
        return whole < 60 ? "\(whole)s" : String(format: "%dm%02ds", whole / 60, whole % 60)
    }

    private static func kibibytes(_ bytes: UInt64) -> String {
        String(format: "%.1f", Double(bytes) / 1024)
    }
}
