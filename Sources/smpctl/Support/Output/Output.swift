import FoundationEssentials

/// Writes command results: readable text for people, or one JSON document with `--json`.
struct Output {
    /// Whether `--json` was given.
    let json: Bool

    /// Prints a result in the selected form.
    func emit(_ document: @autoclosure () -> JSONValue, human: @autoclosure () -> String) {
        if json {
            Self.write(document().documentLine(), to: .standardOutput)
        } else {
            let text = human()
            Self.write(text.hasSuffix("\n") || text.isEmpty ? text : text + "\n", to: .standardOutput)
        }
    }

    /// Prints a failure: `error:`/`hint:` lines on standard error, plus the JSON document with `--json`.
    func report(_ error: CLIError) {
        if json { Self.write(error.json.documentLine(), to: .standardOutput) }
        var text = "error: \(error.message)\n"
        if let hint = error.hint { text += "hint: \(hint.split(separator: "\n").joined(separator: "\n      "))\n" }
        Self.write(text, to: .standardError)
    }

    /// Writes progress or status text to standard error (never mixed into JSON output).
    static func status(_ text: String) {
        write(text + "\n", to: .standardError)
    }

    /// Writes `text` to a standard stream; a stream that cannot be written drops it (see ``StandardStream``).
    static func write(_ text: String, to stream: StandardStream) {
        stream.write(text)
    }
}
