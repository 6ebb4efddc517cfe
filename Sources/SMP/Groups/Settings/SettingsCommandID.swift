/// Command IDs of the settings management group (3).
public enum SettingsCommandID {
    /// Read (read) or write (write) one setting.
    public static let readWrite: UInt8 = 0
    /// Delete one setting.
    public static let delete: UInt8 = 1
    /// Commit (apply) the settings set so far.
    public static let commit: UInt8 = 2
    /// Load (read) from, or save (write) to, persistent storage.
    public static let loadSave: UInt8 = 3
}
