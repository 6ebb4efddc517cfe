/// Command IDs of the run group (7, Mynewt `runtest`).
public enum RunCommandID {
    /// Start a test suite, or all of them.
    public static let test: UInt8 = 0
    /// List the test suites.
    public static let list: UInt8 = 1
}
