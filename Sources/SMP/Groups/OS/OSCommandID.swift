/// Command IDs of the OS management group (0).
public enum OSCommandID {
    /// Echo.
    public static let echo: UInt8 = 0
    /// Console echo control.
    public static let consoleEcho: UInt8 = 1
    /// Task statistics.
    public static let taskStatistics: UInt8 = 2
    /// Memory pool statistics (Mynewt).
    public static let memoryPoolStatistics: UInt8 = 3
    /// Date-time get/set.
    public static let dateTime: UInt8 = 4
    /// System reset.
    public static let reset: UInt8 = 5
    /// MCUmgr parameters.
    public static let parameters: UInt8 = 6
    /// OS/application info.
    public static let info: UInt8 = 7
    /// Bootloader info.
    public static let bootloaderInfo: UInt8 = 8
}
