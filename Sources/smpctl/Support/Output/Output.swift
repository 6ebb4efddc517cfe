import FoundationEssentials
import JSON

/// Writes command results: readable text for people, or one JSON document with `--json`.
///
/// A device command writes everything it has to say through the `Output` it is handed: for one
/// device that is the process's standard streams; for one device of a many-device run it is that
/// device's ``DeviceOutput`` (``device``), which keeps the results as typed values for the run to
/// show, so a command never needs to know how many devices it serves.
struct Output: Sendable {
    /// Whether `--json` was given.
    let json: Bool
    /// The device this output belongs to within a many-device run; nil when writing to the
    /// process's standard streams.
    let device: DeviceOutput?

    init(json: Bool, device: DeviceOutput? = nil) {
        self.json = json
        self.device = device
    }

    /// Prints a result in the selected form. The text for people has its control characters
    /// made visible (``TerminalText/visible(_:)``) unless `verbatim` (a device shell's output at
    /// a terminal, which keeps its colours). A device of a many-device run keeps the document
    /// in either form, for the run's report.
    func emit(_ document: @autoclosure () -> JSONValue, human: @autoclosure () -> String, verbatim: Bool = false) {
        if json {
            write(document: document())
        } else {
            device?.record(document: document().document)
            let text = human()
            write(text: text.hasSuffix("\n") || text.isEmpty ? text : text + "\n", verbatim: verbatim)
        }
    }

    /// Writes text for people on standard output, its control characters made visible unless
    /// `verbatim`.
    func write(text: String, verbatim: Bool = false) {
        let text = verbatim ? text : TerminalText.visible(text)
        if let device { device.record(text: text) } else { Self.write(text, to: .standardOutput) }
    }

    /// Writes a JSON document on standard output (a result, or an event such as progress).
    func write(document: JSONValue) {
        if let device { device.record(document: document.document) } else { Self.write(document.documentLine(), to: .standardOutput) }
    }

    /// Prints a failure: `error:`/`hint:` lines on standard error, plus the JSON document with
    /// `--json` unless `document` is false (the failure of one item of a partial result).
    func report(_ error: CLIError, document: Bool = true) {
        if json && document { write(document: error.json) }
        if let device {
            device.record(failure: error)
            return
        }
        var text = "error: \(error.message)\n"
        if let hint = error.hint { text += "hint: \(hint.split(separator: "\n").joined(separator: "\n      "))\n" }
        Self.write(TerminalText.visible(text), to: .standardError)
    }

    /// Writes a note, warning or announcement on standard error (never mixed into JSON output).
    func note(_ text: String) {
        if let device { device.record(note: text) } else { Self.status(text) }
    }

    /// Writes progress or status text to standard error (never mixed into JSON output), its
    /// control characters made visible.
    static func status(_ text: String) {
        write(TerminalText.visible(text) + "\n", to: .standardError)
    }

    /// Writes `text` to a standard stream; a stream that cannot be written drops it (see ``StandardStream``).
    static func write(_ text: String, to stream: StandardStream) {
        stream.write(text)
    }
}
