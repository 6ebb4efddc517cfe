import CBOR
import SMP

/// The statistics group (2) as Zephyr implements it (docs/protocol/groups.md §5): list the groups, read one.
///
/// An unknown name is answered `STAT_MGMT_ERR_INVALID_STAT_NAME` with `err.group` 63, as
/// Zephyr's `stat_mgmt.c` does (translated to rc 5 for SMP v1); a missing, empty or too long
/// name rc 3.
public struct StatisticsGroup: SimulatedGroup {
    public var group: SMPGroup { .statistics }

    /// What the group holds.
    public let configuration: SimulatedStatisticsConfiguration

    /// Creates the group.
    public init(configuration: SimulatedStatisticsConfiguration) { self.configuration = configuration }

    public func implements(command: UInt8) -> Bool {
        command == StatisticsCommandID.read || command == StatisticsCommandID.list
    }

    public func handle(_ request: SimulatedRequest, context: inout SimulatedDeviceContext) throws(SimulatedError) -> CBORMap {
        switch (request.command, request.operation) {
        case (StatisticsCommandID.list, .read):
            return ["stat_list": .array(configuration.groups.map { .text($0.name) })]
        case (StatisticsCommandID.read, .read):
            return try read(request, context: context)
        default:
            throw .notSupported
        }
    }

    private func read(_ request: SimulatedRequest, context: SimulatedDeviceContext) throws(SimulatedError) -> CBORMap {
        guard let name = try request.fields(["name": .text]).text("name"), !name.isEmpty,
              name.utf8.count <= configuration.maximumNameLength else {
            throw .invalidValue
        }
        guard let statistics = configuration.groups.first(where: { $0.name == name }) else {
            throw .groupError(StatisticsGroupError.invalidStatName, reportedAs: .zephyrBasic)
        }
        var fields = CBORMap()
        for (index, counter) in statistics.counters.enumerated() {
            let label = configuration.syntheticNames ? "s\(index)" : counter.name
            fields.append(key: .text(label), value: .unsigned(counter.value(in: context)))
        }
        return ["name": .text(name), "fields": .map(fields)]
    }
}
