/// Command IDs of the statistics group (2).
public enum StatisticsCommandID {
    /// Read one statistics group (`{"name"}` → `{"name", "fields"}`).
    public static let read: UInt8 = 0
    /// List the statistics groups (`stat_list`).
    public static let list: UInt8 = 1
}
