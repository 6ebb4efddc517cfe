import SMP

/// How `image upload` reports a failed or interrupted upload.
enum ImageUploadFailure {
    /// The CLI error for `error`; an interruption says where the upload stopped and how to resume.
    static func cliError(_ error: any Error, _ progress: UploadProgress?, command: String) -> CLIError {
        switch error {
        case is CancellationError:
            let position = progress.map { "at \($0.acknowledged) of \($0.total) bytes (\(Int($0.fraction * 100))%)" } ?? "before the first chunk"
            return CLIError(
                .interrupted, "upload interrupted \(position)",
                hint: "the device keeps the partial upload; the same command resumes it: \(command)")
        case let error as ChunkedUploadError:
            switch error {
            case .hashMismatch:
                return CLIError(.deviceError, error.description, hint: "upload again with --restart; if it persists, the slot's flash may be failing")
            case .messageTooSmall, .fileTooShort:
                return CLIError(.dataError, error.description)
            case .offsetBeyondEnd, .noProgress:
                return CLIError(.protocolError, error.description, hint: "try again with --restart or --window 1")
            }
        default:
            return CLIError(error)
        }
    }
}
