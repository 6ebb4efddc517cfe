/// Which failed transfers a rerun can continue.
public enum TransferInterruption {
    /// Whether a transfer that failed with `error` can be continued by running it again: an
    /// interruption or a lost link, not a device's refusal nor a local file that cannot be written.
    public static func canContinue(after error: any Error) -> Bool {
        switch error {
        case is CancellationError: return true
        case SMPError.timeout, SMPError.transport, SMPError.cancelled: return true
        default: return false
        }
    }
}
