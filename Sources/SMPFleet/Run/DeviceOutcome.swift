/// How one device's part of a fleet run ended.
public enum DeviceOutcome: String, Sendable, CaseIterable {
    /// The operation finished and changed what it had to.
    case succeeded
    /// The operation found nothing to do (e.g. the device already runs the firmware).
    case skipped
    /// The operation, or opening the connection, failed: ``DeviceRecord/failure`` says why.
    case failed
    /// The run was cancelled (Ctrl-C) while the device was in progress.
    case interrupted
    /// The run was cancelled before the device's turn came.
    case notStarted = "not-started"
}
