import JSON
import SMP

/// How `fs put` and `fs get` report a failed or interrupted transfer, and their common figures.
enum FSTransferFailure {
    /// The CLI error for `error`; an interruption says where the transfer stopped and how to resume.
    static func cliError(_ error: any Error, _ progress: UploadProgress?, verb: String, command: String) -> CLIError {
        switch error {
        case is CancellationError:
            let position = progress.map { "at \($0.acknowledged) of \($0.total) bytes (\(Int($0.fraction * 100))%)" } ?? "before the first chunk"
            return CLIError(.interrupted, "\(verb) interrupted \(position)", hint: "the same command continues it: \(command)")
        case let error as ChunkedUploadError:
            return CLIError(.protocolError, error.description, hint: "try again with --restart or --window 1")
        case SMPError.device(.returnCode(let code, _, _), _) where code == .notSupported:
            var failure = CLIError(error)
            failure.hint = "the device has no file system group, or not this command (CONFIG_MCUMGR_GRP_FS)"
            return failure
        default:
            return CLIError(error)
        }
    }

    /// What a transfer's text says about its check: the device's hash that matched, or why none
    /// was compared although a check was due, and whether the transfer was repeated from 0.
    static func verificationLines(checked: Bool, _ verification: RemoteFileHashComparison?, attempts: Int) -> [String] {
        var lines: [String] = []
        if attempts > 1 { lines.append("the first transfer did not match the device's hash: transferred again from offset 0") }
        if let verification {
            lines.append("verified: the device's \(verification.type) matches\(verification.device.output.isEmpty ? "" : " (\(verification.device.hex))")")
        } else if checked {
            lines.append("not verified: the device cannot hash files (CONFIG_MCUMGR_GRP_FS_CHECKSUM_HASH)")
        }
        return lines
    }

    /// The JSON members every transfer result shares.
    static func figures(_ progress: UploadProgress, window: Int, seconds: Double) -> [(String, JSONValue)] {
        [
            ("resumedFrom", progress.resumedFrom.map(JSONValue.uint) ?? .null), ("window", .uint(UInt64(window))),
            ("chunks", .uint(UInt64(progress.chunksSent))), ("seconds", .seconds(seconds)),
            ("bytesPerSecond", .rate(progress.bytesPerSecond)),
        ]
    }
}
