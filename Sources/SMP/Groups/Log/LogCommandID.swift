/// Command IDs of the log group (4, Mynewt).
public enum LogCommandID {
    /// Show log entries.
    public static let show: UInt8 = 0
    /// Clear logs.
    public static let clear: UInt8 = 1
    /// Append an entry (not generally implemented by devices).
    public static let append: UInt8 = 2
    /// The module names and IDs.
    public static let moduleList: UInt8 = 3
    /// The level names and IDs.
    public static let levelList: UInt8 = 4
    /// The names of the logs.
    public static let logList: UInt8 = 5
}
