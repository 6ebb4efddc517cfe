import SMP

/// How `image upload` reports a failed or interrupted upload.
enum ImageUploadFailure {
    /// The CLI error for `error`; an interruption says where the upload stopped and how to resume
    /// it, or (`serialRecovery`: MCUboot's serial recovery took it) that it starts over.
    static func cliError(_ error: any Error, _ progress: UploadProgress?, command: String, serialRecovery: Bool = false) -> CLIError {
        switch error {
        case is CancellationError:
            let position = progress.map { "at \($0.acknowledged) of \($0.total) bytes (\(Int($0.fraction * 100))%)" } ?? "before the first chunk"
            let resume = serialRecovery ? ImageUpload.interruptedRecoveryUpload : "the device keeps the partial upload; the same command resumes it"
            return CLIError(.interrupted, "upload interrupted \(position)", hint: "\(resume): \(command)")
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
