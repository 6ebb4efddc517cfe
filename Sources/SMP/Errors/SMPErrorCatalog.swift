/// Maps a group ID to its error table (§1.9).
enum SMPErrorCatalog {
    /// Every group error table: OS, image, statistics, settings, file system, shell,
    /// enumeration, transport and Zephyr basic.
    static let tables: [SMPErrorTable] = [
        .os, .image, .statistics, .settings, .fileSystem, .shell, .enumeration, .transport, .zephyrBasic,
    ]

    private static let byGroup: [UInt16: SMPErrorTable] =
        Dictionary(uniqueKeysWithValues: tables.map { ($0.group, $0) })

    /// The table for an error reported with `err.group == group`.
    ///
    /// Zephyr's statistics group reports its errors with group 63 (Zephyr basic) instead of 2, and
    /// the two enums overlap (63/3 is FLASH_CONFIG_QUERY_FAIL, 2/3 INVALID_STAT_NAME). So when the
    /// request went to the statistics group and the error says group 63, the statistics table is used.
    static func table(forGroup group: UInt16, requestGroup: UInt16?) -> SMPErrorTable? {
        if group == SMPErrorTable.zephyrBasic.group, requestGroup == SMPErrorTable.statistics.group {
            return .statistics
        }
        return byGroup[group]
    }
}
