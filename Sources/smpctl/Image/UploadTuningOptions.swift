import ArgumentParser
import SMP

/// How an upload paces and sizes its chunks: `--window`, `--align`, `--restart` (shared by
/// `image upload` and `upgrade`).
struct UploadTuningOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Chunks in flight (default: the config file's window, else the device's buf_count - 1).", valueName: "n"))
    var window: Int?

    @Option(name: .customLong("align"), help: ArgumentHelp(
        "End every chunk but the last on a multiple of this many bytes (a device that stores whole flash units shows its unit in its answers, which is learned anyway; default: the config file's align, else 1).",
        valueName: "n"))
    var alignment: Int?

    @Flag(help: "Start at offset 0 even when the device holds an interrupted upload of this file.")
    var restart = false

    func validate() throws {
        try NumericRange.window.check(window)
        try NumericRange.align.check(alignment)
    }

    /// These options as arguments for a command that resumes the upload (`--restart` left out:
    /// resuming is the point).
    var resumeArguments: [String] {
        var words: [String] = []
        if let window { words += ["--window", "\(window)"] }
        if let alignment { words += ["--align", "\(alignment)"] }
        return words
    }

    /// The engine's options; where the command line gives no window or alignment, the config
    /// file's (profile or defaults, docs/configuration.md).
    func chunkedUploadOptions(_ invocation: Invocation) -> ChunkedUploadOptions {
        ChunkedUploadOptions(window: window ?? invocation.window, alignment: alignment ?? invocation.align ?? 1, restart: restart)
    }
}
