/// What `upgrade` does after uploading (docs/protocol/upgrade.md §17).
public enum UpgradeMode: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Mark each image for test, reset, check that it runs, then confirm it. A new image that
    /// fails to start is reverted by MCUboot. The default.
    case testAndConfirm = "test-and-confirm"
    /// Confirm each image before the reset: it stays even if it never confirms itself.
    case confirmOnly = "confirm-only"
    /// Mark each image for test and reset; the application confirms itself (or is reverted at
    /// the next reset).
    case testOnly = "test-only"
    /// Upload only: nothing is marked and the device is not reset.
    case uploadOnly = "upload-only"

    public var description: String { rawValue }
}
