/// The settings group of a ``VirtualDevice`` (docs/protocol/groups.md §6): which subtrees have handlers, what is saved at
/// start, which keys are read-only, and the name and value limits.
public struct SimulatedSettingsConfiguration: Sendable, Hashable {
    /// The registered handlers' roots (a name's part before the first `/`); other roots answer
    /// ROOT_KEY_NOT_FOUND.
    public var roots: Set<String>
    /// The values saved in the storage partition at start (and loaded into RAM), by full name.
    public var savedValues: [String: [UInt8]]
    /// Keys whose handler has no set or delete: writes answer WRITE_NOT_SUPPORTED, deletes
    /// DELETE_NOT_SUPPORTED.
    public var readOnlyKeys: Set<String>
    /// `MCUMGR_GRP_SETTINGS_NAME_LEN`: the name buffer, NUL included; names of this many bytes
    /// or more answer KEY_TOO_LONG.
    public var nameLimit: Int
    /// `MCUMGR_GRP_SETTINGS_VALUE_LEN`: reads return at most this many bytes; longer writes
    /// answer rc 3 (`MGMT_ERR_EINVAL`).
    public var valueLimit: Int

    /// Creates a configuration. The defaults: roots `app`, `bt` and `fw_loader`; `bt/name` =
    /// "Zephyr", `app/greeting` = "hello", `app/boot_count` = u32 1, and the read-only
    /// `app/serial` = "SN-0001"; names up to 31 bytes, values up to 64.
    public init(
        roots: Set<String> = ["app", "bt", "fw_loader"],
        savedValues: [String: [UInt8]] = [
            "bt/name": Array("Zephyr".utf8), "app/greeting": Array("hello".utf8), "app/boot_count": [1, 0, 0, 0],
            "app/serial": Array("SN-0001".utf8),
        ],
        readOnlyKeys: Set<String> = ["app/serial"], nameLimit: Int = 32, valueLimit: Int = 64
    ) {
        self.roots = roots
        self.savedValues = savedValues
        self.readOnlyKeys = readOnlyKeys
        self.nameLimit = nameLimit
        self.valueLimit = valueLimit
    }
}
