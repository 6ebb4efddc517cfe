import ArgumentParser

/// `--json`, for every command that prints a result (device commands take it through ``GlobalOptions``).
struct JSONOutputOption: ParsableArguments {
    @Flag(help: "Print one JSON document instead of text (docs/json-output.md).")
    var json = false

    /// The output writer for this invocation.
    var output: Output { Output(json: json) }
}
