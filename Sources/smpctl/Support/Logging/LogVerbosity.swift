import Logging

/// What `-v`, `-vv` and `-vvv` show (docs/progress-and-logging.md):
///
/// - none: notices (a serial device gone and back, a lossy link paced more slowly), warnings and errors;
/// - `-v` (debug): transport events (open, close, reconnect, pacing, retries) and a line per
///   request and response (name, op, seq, size, rc, round trip);
/// - `-vv` (trace, payloads only): also each request's and response's CBOR payload as JSON;
/// - `-vvv` (trace): also every frame in hex.
///
/// The `--log-file` gets at least what `-v` shows, whatever the verbosity.
struct LogVerbosity: Sendable, Equatable {
    /// How many `-v`.
    var count: Int

    /// The lowest level shown.
    var level: Logger.Level {
        switch count {
        case ...0: .notice
        case 1: .debug
        default: .trace
        }
    }

    /// What the log file gets: at least `-v`.
    var forFile: LogVerbosity { LogVerbosity(count: max(1, count)) }

    /// Whether a record passes: below `-vvv`, trace records are shown only when they carry a payload.
    func shows(_ event: LogEvent) -> Bool {
        guard event.level >= level else { return false }
        return event.level > .trace || count >= 3 || event.metadata?["payload"] != nil
    }
}
