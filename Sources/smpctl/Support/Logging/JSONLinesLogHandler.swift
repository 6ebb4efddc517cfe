#if canImport(Glibc)
import Glibc
import JSON
#endif
import FoundationEssentials
import Logging

/// The log records in the `--log-file`, one JSON object a line:
/// `{"time":"2026-11-26T13:30:00.123Z","level":"debug","label":"smp","message":"← os echo","metadata":{"op":"write-response","seq":12,…}}`.
struct JSONLinesLogHandler: LogHandler {
    let label: String
    let verbosity: LogVerbosity
    let file: LogFile
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    init(label: String, verbosity: LogVerbosity, file: LogFile) {
        self.label = label
        self.verbosity = verbosity
        self.file = file
        self.logLevel = verbosity.level
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        guard verbosity.shows(event) else { return }
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        let record = Self.record(
            time: Self.timestamp(), level: event.level, label: label, message: event.message.description, metadata: all)
        file.write(record.serialized() + "\n")
    }

    /// One record as JSON.
    static func record(time: String, level: Logger.Level, label: String, message: String, metadata: Logger.Metadata) -> JSONValue {
        .object([
            ("time", .string(time)), ("level", .string(level.rawValue)), ("label", .string(label)), ("message", .string(message)),
            ("metadata", .object(LogMetadataRendering.ordered(metadata).map { ($0.key, LogMetadataRendering.json($0.value)) })),
        ])
    }

    /// Now in UTC as ISO 8601 with milliseconds: `2026-11-26T13:30:00.123Z`.
    static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return timestamp(seconds: now.tv_sec, milliseconds: Int(now.tv_nsec / 1_000_000))
    }

    /// A time in UTC as ISO 8601 with milliseconds.
    static func timestamp(seconds: Int, milliseconds: Int) -> String {
        var time = seconds
        var parts = tm()
        gmtime_r(&time, &parts)
        return String(
            printf: "%04ld-%02ld-%02ldT%02ld:%02ld:%02ld.%03ldZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
            Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), milliseconds)
    }
}
