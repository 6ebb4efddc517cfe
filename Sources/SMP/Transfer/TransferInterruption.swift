import SMP

extension FSTransferFailure {
    /// Whether a transfer that failed with `error` can be continued by running the command again:
    /// an interruption or a lost link, not a device's refusal nor a local file that cannot be written.
    static func canContinue(after error: any Error) -> Bool {
        switch error {
        case is CancellationError: return true
        case SMPError.timeout, SMPError.transport, SMPError.cancelled: return true
        default: return false
        }
    }
}
