import Logging

/// The log records on standard error, one line each for people:
/// `smp: ← os echo op=write-response seq=12 size=15 rc=0 ms=0.4` (the level is named from notice
/// up), filtered as ``LogVerbosity`` says.
struct CLILogHandler: LogHandler {
    let label: String
    let verbosity: LogVerbosity
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    init(label: String, verbosity: LogVerbosity) {
        self.label = label
        self.verbosity = verbosity
        self.logLevel = verbosity.level
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
        StandardStream.standardError.write(line + "\n")
    }
}
