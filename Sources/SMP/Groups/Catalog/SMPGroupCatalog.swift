import Synchronization

/// The management groups the library knows: the built-in descriptors, plus the ones an
/// application registers at run time. Group names, lookups by name, Kconfig hints, error
/// decoding and the probes of `smpctl groups` are all derived from here.
public enum SMPGroupCatalog {
    /// The built-in groups, by ID. (Swift has no static registration, so a new built-in group
    /// is one line here; an application-defined group uses ``register(_:)`` instead.)
    public static let builtIn: [SMPGroupDescriptor] = [
        .os, .image, .statistics, .settings, .log, .crash, .split, .run, .fileSystem, .shell, .enumeration,
        .transport, .zephyrBasic, .suit, .memfault,
    ]

    private static let builtInByID: [UInt16: SMPGroupDescriptor] =
        Dictionary(uniqueKeysWithValues: builtIn.map { ($0.group.rawValue, $0) })

    private static let registered = Mutex<[UInt16: SMPGroupDescriptor]>([:])

    /// Adds an application-defined group, or replaces the one registered before with its ID.
    ///
    /// - Throws: ``SMPGroupCatalogError`` when the ID or the name belongs to a built-in group, or
    ///   the name to another registered group.
    public static func register(_ descriptor: SMPGroupDescriptor) throws(SMPGroupCatalogError) {
        if let builtIn = builtInByID[descriptor.group.rawValue] {
            throw SMPGroupCatalogError(descriptor: descriptor, takenBy: builtIn)
        }
        let name = descriptor.name.lowercased()
        if let builtIn = builtIn.first(where: { $0.name.lowercased() == name }) {
            throw SMPGroupCatalogError(descriptor: descriptor, takenBy: builtIn)
        }
        try registered.withLock { (groups) throws(SMPGroupCatalogError) in
            if let other = groups.values.first(where: { $0.name.lowercased() == name && $0.group != descriptor.group }) {
                throw SMPGroupCatalogError(descriptor: descriptor, takenBy: other)
            }
            groups[descriptor.group.rawValue] = descriptor
        }
    }

    /// Every known group, built-in and registered, by ID.
    public static var all: [SMPGroupDescriptor] {
        let extra = registered.withLock { Array($0.values) }
        guard !extra.isEmpty else { return builtIn }
        return (builtIn + extra).sorted { $0.group < $1.group }
    }

    /// The descriptor of `group`, if the group is known.
    public static func descriptor(for group: SMPGroup) -> SMPGroupDescriptor? {
        if let descriptor = builtInByID[group.rawValue] { return descriptor }
        return registered.withLock { $0[group.rawValue] }
    }

    /// The descriptor whose short name is `name` (case-insensitive), if any.
    public static func descriptor(named name: String) -> SMPGroupDescriptor? {
        let name = name.lowercased()
        return all.first { $0.name.lowercased() == name }
    }

    /// The descriptor whose error enum interprets an error reported with `err.group == group`
    /// in answer to a request of `requestGroup`; nil when that group has no error enum.
    ///
    /// A group that reports its errors under another ID (``SMPGroupDescriptor/reportsErrorsAs``:
    /// Zephyr's statistics group says 63, whose enum overlaps: 63/3 is FLASH_CONFIG_QUERY_FAIL,
    /// 2/3 INVALID_STAT_NAME) is used when the request went to it and the error names that ID.
    static func errorDescriptor(forGroup group: UInt16, requestGroup: UInt16?) -> SMPGroupDescriptor? {
        if let requestGroup, let requested = descriptor(for: SMPGroup(rawValue: requestGroup)),
           requested.reportsErrorsAs?.rawValue == group, requested.errors != nil {
            return requested
        }
        guard let descriptor = descriptor(for: SMPGroup(rawValue: group)), descriptor.errors != nil else { return nil }
        return descriptor
    }
}

/// A group that cannot be registered: its ID or name is taken.
public struct SMPGroupCatalogError: Error, Sendable, CustomStringConvertible {
    /// The group that was to be registered.
    public let group: SMPGroup
    /// Its name.
    public let name: String
    /// The group that holds the ID or the name already.
    public let takenBy: SMPGroup

    init(descriptor: SMPGroupDescriptor, takenBy other: SMPGroupDescriptor) {
        group = descriptor.group
        name = descriptor.name
        takenBy = other.group
    }

    public var description: String {
        "cannot register group \(group.rawValue) \"\(name)\": its ID or name belongs to \(takenBy); "
            + "choose an unused ID (64 and up are for applications) and name"
    }
}
