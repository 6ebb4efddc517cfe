import ArgumentParser

/// `--targets FILE`, `--jobs N` and `--report FILE`: the options of a command run on many devices
/// at once (docs/many-devices.md). Every device command takes them.
struct FleetOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Run on every device listed in FILE, one per line: [LABEL] CONNECTION, SELECTOR or PROFILE ('-' reads standard input); may be given several times.",
        valueName: "file"),
        completion: .file())
    var targets: [String] = []

    @Option(help: ArgumentHelp(
        "How many devices to serve at once, 1 to 256 (default: 64 over UDP, 32 over serial, 2 over BLE).", valueName: "count"))
    var jobs: Int?

    @Option(help: ArgumentHelp(
        "Write a report of the run, one device or many, to FILE: CSV when it ends in .csv, JSON otherwise; may be given twice.",
        valueName: "file"),
        completion: .file())
    var report: [String] = []

    func validate() throws {
        try NumericRange.jobs.check(jobs)
        for path in report where path.isEmpty {
            throw ValidationError("--report needs a file name")
        }
    }

    /// The arguments that repeat these options in a pasted command line.
    var invocationArguments: [String] {
        var words: [String] = []
        for file in targets { words += ["--targets", file] }
        if let jobs { words += ["--jobs", "\(jobs)"] }
        for path in report { words += ["--report", path] }
        return words
    }
}
