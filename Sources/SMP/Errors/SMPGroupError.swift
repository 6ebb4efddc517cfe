/// A group-specific error from an SMP version 2 response: `"err": {"group": g, "rc": r}` (§1.7, §1.9).
///
/// Names are Zephyr's enumerator names (`IMG_MGMT_ERR_NO_FREE_SLOT`, `OS_MGMT_ERR_RTC_NOT_SET`,
/// `STAT_MGMT_ERR_…`, `SETTINGS_MGMT_ERR_…`, `FS_MGMT_ERR_…`, `SHELL_MGMT_ERR_…`, `ENUM_MGMT_ERR_…`,
/// `TRANSPORT_MGMT_ERR_…`, `ZEPHYRBASIC_MGMT_ERR_…`), so they can be searched for in the firmware's
/// sources. An unknown code of a known group is named `<PREFIX><n>` (`IMG_MGMT_ERR_40`); a code of a
/// group without a table `group <g> error <n>`.
public struct SMPGroupError: Hashable, Sendable, CustomStringConvertible {
    /// The group as reported in `err.group`.
    public let group: UInt16
    /// The group-specific code, `err.rc`.
    public let code: Int64
    /// The group the request that produced this error was sent to, when known.
    ///
    /// Zephyr's statistics group reports its errors with group 63 (Zephyr basic): when
    /// `requestGroup` is 2 and `group` is 63, the error is interpreted with the statistics table.
    public let requestGroup: UInt16?

    /// An error as reported in `err`, optionally with the group of the request that produced it.
    public init(group: UInt16, code: Int64, requestGroup: UInt16? = nil) {
        self.group = group
        self.code = code
        self.requestGroup = requestGroup
    }

    /// The table this error is interpreted with, if its group has one.
    var table: SMPErrorTable? { SMPErrorCatalog.table(forGroup: group, requestGroup: requestGroup) }

    /// The table entry for this code, if known.
    var entry: SMPErrorTableEntry? { table?.entry(for: code) }

    /// `"IMG_MGMT_ERR_NO_FREE_SLOT"`; `"IMG_MGMT_ERR_40"` for an unknown code of a known group;
    /// `"group 200 error 5"` for a group without a table.
    public var name: String {
        guard let table else { return "group \(group) error \(code)" }
        return table.name(for: code)
    }

    /// What the error means and, where useful, what to try.
    public var sentence: String {
        if let entry { return entry.sentence }
        if let table {
            return "the \(table.title) group reported error \(code), which this version of smpctl does not "
                + "know (the firmware may be newer); look it up in the group's header in the firmware's sources"
        }
        if group >= 64 {
            return "application-defined group \(group) reported error \(code); its meaning is defined by the "
                + "device's firmware"
        }
        return "group \(group) reported error \(code), which this tool does not know"
    }

    /// The `MGMT_ERR_*` code the device would report for this error in an SMP version 1 exchange
    /// (the group's translation table, §1.9). Unknown codes and groups give ``SMPReturnCode/unknown``,
    /// never success.
    public var legacyReturnCode: SMPReturnCode { entry?.legacy ?? .unknown }

    /// `"IMG_MGMT_ERR_NO_FREE_SLOT (image group error 9): no free slot: …"`.
    public var description: String {
        guard let table else { return "\(name): \(sentence)" }
        var location = "\(table.title) group error \(code)"
        if table.group != group { location += ", reported as group \(group)" }
        return "\(name) (\(location)): \(sentence)"
    }
}
