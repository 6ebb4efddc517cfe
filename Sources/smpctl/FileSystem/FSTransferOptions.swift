import ArgumentParser
import SMP

/// `--window`, `--restart` and `--verify`, shared by `fs put` and `fs get`.
struct FSTransferOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Requests in flight (default: the device's buf_count - 1).", valueName: "n"))
    var window: Int?

    @Flag(help: "Start at offset 0 instead of continuing a partial transfer.")
    var restart = false

    @Flag(help: "After every transfer, not only a resumed one, compare the device's hash of the file (sha256, else crc32) with the local file.")
    var verify = false

    /// When the transfer checks its result by hash.
    var verification: TransferVerification { verify ? .always : .afterResume }

    func validate() throws {
        try NumericRange.window.check(window)
    }

    /// These options as arguments for a command that resumes the transfer (`--restart` left out).
    var resumeArguments: [String] {
        var words: [String] = []
        if let window { words += ["--window", "\(window)"] }
        if verify { words.append("--verify") }
        return words
    }
}
