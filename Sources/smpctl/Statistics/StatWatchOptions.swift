import ArgumentParser

/// `--watch SECONDS` and `--count N` for `stat show` and `stat all`.
struct StatWatchOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Read the counters again every SECONDS and redraw them (in place on a terminal); Ctrl-C ends.", valueName: "seconds"))
    var watch: Double?

    @Option(help: ArgumentHelp("With --watch: stop after this many draws.", valueName: "draws"))
    var count: Int?

    func validate() throws {
        try NumericRange.watch.check(watch)
        if let count {
            guard watch != nil else { throw ValidationError("--count applies to --watch: give --watch SECONDS too") }
            try NumericRange.drawCount.check(count)
        }
    }
}
