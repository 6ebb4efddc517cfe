import CBOR
import SMP

/// The settings group (3) as Zephyr's settings subsystem behaves behind it (docs/protocol/groups.md §6), with two layers:
/// the values in RAM (what handlers hold) and the values saved in the storage partition.
///
/// - write sets the RAM value and marks it pending until the next commit; read reads RAM;
/// - delete removes the key from storage only, and succeeds for a key that is not there (Zephyr's
///   `settings_delete()` writes a deletion record and calls no handler): the RAM value stays
///   until the next load or reset;
/// - save writes RAM to storage (everything, or one subtree, deletions included);
/// - load reloads every saved value into RAM;
/// - a reset loses RAM: the device starts again from what is saved.
public struct SettingsGroup: SimulatedGroup {
    public var group: SMPGroup { .settings }

    /// Roots, limits and read-only keys.
    public let configuration: SimulatedSettingsConfiguration
    /// The partition the values are saved in (shared with the Zephyr basic group's erase).
    public let storage: SimulatedStoragePartition
    /// The values in RAM, by name.
    public private(set) var values: [String: [UInt8]]
    /// Names written since the last commit.
    public private(set) var pending: Set<String> = []
    /// How many commits the device applied.
    public private(set) var commitCount = 0

    /// Creates the group over `storage` (by default a partition holding the configuration's
    /// saved values); RAM starts as a copy of what the storage holds.
    public init(
        configuration: SimulatedSettingsConfiguration = SimulatedSettingsConfiguration(),
        storage: SimulatedStoragePartition? = nil
    ) {
        self.configuration = configuration
        let storage = storage ?? SimulatedStoragePartition(settings: configuration.savedValues)
        self.storage = storage
        values = storage.settings
    }

    public func implements(command: UInt8) -> Bool { command <= SettingsCommandID.loadSave }

    public mutating func handle(
        _ request: SimulatedRequest, context: inout SimulatedDeviceContext
    ) throws(SimulatedError) -> CBORMap {
        switch (request.command, request.operation) {
        case (SettingsCommandID.readWrite, .read): return try read(request)
        case (SettingsCommandID.readWrite, .write): return try write(request)
        case (SettingsCommandID.delete, .write): return try delete(request)
        case (SettingsCommandID.commit, .write):
            pending = []
            commitCount += 1
            return [:]
        case (SettingsCommandID.loadSave, .read):
            values.merge(storage.settings) { $1 }
            return [:]
        case (SettingsCommandID.loadSave, .write): return try save(request)
        default: throw .notSupported
        }
    }

    public mutating func deviceDidReset(context: SimulatedDeviceContext) {
        values = storage.settings
        pending = []
    }

    private func read(_ request: SimulatedRequest) throws(SimulatedError) -> CBORMap {
        let fields = try request.fields(["name": .text, "max_size": .unsigned])
        let name = try checkedName(fields)
        guard let value = values[name] else { throw .groupError(SettingsGroupError.keyNotFound) }
        let limit = configuration.valueLimit
        let requested = fields.unsigned("max_size").map { Int(clamping: $0) }
        var response: CBORMap = ["val": .bytes(Array(value.prefix(min(requested ?? limit, limit))))]
        if let requested, requested > limit { response["max_size"] = .integer(limit) }
        return response
    }

    private mutating func write(_ request: SimulatedRequest) throws(SimulatedError) -> CBORMap {
        let fields = try request.fields(["name": .text, "val": .bytes])
        let name = try checkedName(fields)
        guard let value = fields.bytes("val"), value.count <= configuration.valueLimit else { throw .invalidValue }
        guard !configuration.readOnlyKeys.contains(name) else { throw .groupError(SettingsGroupError.writeNotSupported) }
        values[name] = value
        pending.insert(name)
        return [:]
    }

    private func delete(_ request: SimulatedRequest) throws(SimulatedError) -> CBORMap {
        let name = try limitedName(request.fields(["name": .text]))
        guard !configuration.readOnlyKeys.contains(name) else { throw .groupError(SettingsGroupError.deleteNotSupported) }
        storage.deleteSetting(name)
        return [:]
    }

    private func save(_ request: SimulatedRequest) throws(SimulatedError) -> CBORMap {
        let fields = try request.fields(["name": .text])
        if let subtree = fields.text("name") {
            guard subtree.utf8.count < configuration.nameLimit else { throw .groupError(SettingsGroupError.keyTooLong) }
            storage.saveSettings(values) { $0 == subtree || $0.hasPrefix(subtree + "/") }
        } else {
            storage.saveSettings(values) { _ in true }
        }
        return [:]
    }

    /// The request's `name`: present and not empty (rc 3 otherwise), shorter than the name
    /// buffer (its NUL needs a byte), under a registered root.
    private func checkedName(_ fields: SimulatedFields) throws(SimulatedError) -> String {
        let name = try limitedName(fields)
        let root = String(name.prefix { $0 != "/" })
        guard configuration.roots.contains(root) else { throw .groupError(SettingsGroupError.rootKeyNotFound) }
        return name
    }

    /// The request's `name`: present and not empty (rc 3 otherwise), shorter than the name buffer.
    private func limitedName(_ fields: SimulatedFields) throws(SimulatedError) -> String {
        guard let name = fields.text("name"), !name.isEmpty else { throw .invalidValue }
        guard name.utf8.count < configuration.nameLimit else { throw .groupError(SettingsGroupError.keyTooLong) }
        return name
    }
}
