import ArgumentParser
import SMP

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

extension StatWatchOptions {
    /// Runs `body` through `global`'s connection: on one device or many, or on one only with
    /// `--watch` (counters redrawn until Ctrl-C have no end for a many-device summary).
    func withClient(_ global: GlobalOptions, _ body: @Sendable (SMPClient, Output) async throws -> Void) async throws {
        guard watch != nil else { return try await global.withClient(body) }
        try await global.withOneClient(because: "--watch follows one device; without --watch, `stat` reads many once", body)
    }
}
