import Logging

/// The log records on standard error, one line each for people:
/// `smp: ← os echo op=write-response seq=12 size=15 rc=0 ms=0.4` (the level is named from notice
/// up), filtered as ``LogVerbosity`` says. With a live progress line on a terminal, a record first
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

    func log(event: LogEvent) {
        guard verbosity.shows(event) else { return }
        var line = "\(label): "
        if event.level >= .notice { line += "\(event.level): " }
        line += event.message.description
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        if !all.isEmpty { line += " " + LogMetadataRendering.text(all) }
        StandardStream.standardError.write((wipesLiveLine ? "\r\u{1B}[K" : "") + TerminalText.visible(line) + "\n")
    }
}
