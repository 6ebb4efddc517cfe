import ArgumentParser

/// `--watch SECONDS` and `--count N` for `stat show` and `stat all`.
struct StatWatchOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Read the counters again every SECONDS and redraw them (in place on a terminal); Ctrl-C ends.", valueName: "seconds"))
    var watch: Double?

    @Option(help: ArgumentHelp("With --watch: stop after this many draws.", valueName: "draws"))
    var count: Int?

    func validate() throws {
        if let watch, !(watch >= 0.05 && watch <= 86_400) {
            throw ValidationError("--watch must be from 0.05 to 86400 seconds, not \(watch)")
        }
        if let count {
            guard watch != nil else { throw ValidationError("--count applies to --watch: give --watch SECONDS too") }
            if count < 1 { throw ValidationError("--count must be at least 1, not \(count)") }
        }
    }
}
