import Logging

/// The log records on standard error, one line each for people:
/// `smp: ← os echo op=write-response seq=12 size=15 rc=0 ms=0.4`, and from notice up
/// `note: …`, `warning: …`, `error: …`, filtered as ``LogVerbosity`` says. With a live progress line on a terminal, a record first
/// wipes that line (the next redraw draws it again below), so the two never share a line.
struct CLILogHandler: LogHandler {
    let label: String
    let verbosity: LogVerbosity
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    private let wipesLiveLine: Bool

    init(label: String, verbosity: LogVerbosity) {
        self.label = label
        self.verbosity = verbosity
        self.logLevel = verbosity.level
        wipesLiveLine = ProgressDisplay.mode == .bar && TerminalWidth.columns() != nil
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// `note: `, `warning: `, `error: ` from notice up, the words every other message of smpctl
    /// uses; below, the logger's label (`smp: `), for the records `-v` shows.
    static func prefix(_ level: Logger.Level, label: String) -> String {
        switch level {
        case .trace, .debug, .info: "\(label): "
        case .notice: "note: "
        case .warning: "warning: "
        case .error, .critical: "error: "
        }
    }

    func log(event: LogEvent) {
        guard verbosity.shows(event) else { return }
        var line = Self.prefix(event.level, label: label) + event.message.description
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        if !all.isEmpty { line += " " + LogMetadataRendering.text(all) }
        StandardStream.standardError.write((wipesLiveLine ? "\r\u{1B}[K" : "") + TerminalText.visible(line) + "\n")
    }
}
