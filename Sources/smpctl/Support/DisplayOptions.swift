import ArgumentParser

/// `--progress bar|plain|none` and `-q/--quiet`: how much a command tells on standard error
/// besides its result and its errors.
struct DisplayOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "How progress shows on standard error: bar (live, fitted to the terminal), plain (a line per step, and one every 10 s of a transfer) or none (default: bar at a terminal, plain otherwise).",
        valueName: "mode"))
    var progress: ProgressMode?

    @Flag(name: .shortAndLong, help: "No progress and no informational lines; the result, warnings and errors are still printed.")
    var quiet = false
}
