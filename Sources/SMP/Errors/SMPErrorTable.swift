/// One value of a group's error enum: what a v2 `err.rc` means (§1.9).
struct SMPErrorTableEntry: Sendable {
    /// The `err.rc` value.
    let code: Int64
    /// The name after the group prefix, e.g. `NO_FREE_SLOT` for `IMG_MGMT_ERR_NO_FREE_SLOT`.
    let suffix: String
    /// What it means and, where useful, what to try.
    let sentence: String
    /// The `MGMT_ERR_*` code a v1 (legacy) exchange reports instead.
    let legacy: SMPReturnCode

    init(_ code: Int64, _ suffix: String, _ sentence: String, _ legacy: SMPReturnCode) {
        self.code = code
        self.suffix = suffix
        self.sentence = sentence
        self.legacy = legacy
    }
}

/// A group's error enum, as data. The tables live one per file (`OSErrorTable.swift`, …);
/// ``SMPErrorCatalog`` maps group IDs to them.
///
/// Names are Zephyr's C enumerator names (`<prefix><suffix>`, e.g. `OS_MGMT_ERR_RTC_NOT_SET`), so
/// they can be searched for in the firmware's sources. Unknown codes are named `<prefix><n>`.
struct SMPErrorTable: Sendable {
    /// The group whose enum this is.
    let group: UInt16
    /// The enumerator prefix, e.g. `IMG_MGMT_ERR_`.
    let prefix: String
    /// The group's name in sentences, e.g. `image`.
    let title: String
    /// The enum's values, in order.
    let entries: [SMPErrorTableEntry]

    /// The entry for `code`, if the enum has one.
    func entry(for code: Int64) -> SMPErrorTableEntry? {
        entries.first { $0.code == code }
    }

    /// The full name for `code`: `IMG_MGMT_ERR_NO_FREE_SLOT`, or `IMG_MGMT_ERR_40` when unknown.
    func name(for code: Int64) -> String {
        prefix + (entry(for: code)?.suffix ?? String(code))
    }
}
