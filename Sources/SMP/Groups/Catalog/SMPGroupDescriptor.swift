/// Everything the library, the simulator and the CLI know about one management group, in one
/// value: its ID and names, where firmware turns it on, its commands, its error enum and a
/// harmless request that tells whether a device has it.
///
/// The built-in groups have one each (``os``, ``image``, ``fileSystem`` …, in the group's folder);
/// ``SMPGroupCatalog`` lists them and derives group names, error decoding and probes from them.
/// An application-defined group is added at run time with ``SMPGroupCatalog/register(_:)``.
public struct SMPGroupDescriptor: Sendable {
    /// The group ID.
    public let group: SMPGroup
    /// The short name used on the command line and in JSON (`fs`, `image`, `zephyr-basic` …).
    public let name: String
    /// The group's name in sentences (`file system` in "file system group error 3").
    public let title: String
    /// The name the firmware registers the group under (Zephyr's `mg_group_name`, e.g.
    /// `fs mgmt`), as enumeration details report it; nil when there is none.
    public let firmwareName: String?
    /// Where a firmware turns this group on, for the hint of a "not supported" answer.
    public let enablingOption: String
    /// The group's commands, by ID.
    public let commands: [SMPCommandDescriptor]
    /// The group's error enum, nil when the group defines no error codes.
    public let errors: (any SMPGroupErrorCode.Type)?
    /// The group ID the firmware puts in `err.group` for this group's errors when it is not the
    /// group's own (Zephyr's statistics group reports as Zephyr basic, 63).
    public let reportsErrorsAs: SMPGroup?
    /// A request that changes nothing on the device, for learning whether it has the group
    /// (any answer but rc 8 means it has); nil when the group has no harmless command.
    public let probe: SMPRequest?

    /// Describes a group.
    public init(
        group: SMPGroup, name: String, title: String, firmwareName: String? = nil, enablingOption: String,
        commands: [SMPCommandDescriptor] = [], errors: (any SMPGroupErrorCode.Type)? = nil,
        reportsErrorsAs: SMPGroup? = nil, probe: SMPRequest? = nil
    ) {
        self.group = group
        self.name = name
        self.title = title
        self.firmwareName = firmwareName
        self.enablingOption = enablingOption
        self.commands = commands
        self.errors = errors
        self.reportsErrorsAs = reportsErrorsAs
        self.probe = probe
    }

    /// The command with this ID, if the group has one.
    public func command(_ id: UInt8) -> SMPCommandDescriptor? {
        commands.first { $0.id == id }
    }
}
