import CBOR
import SMP

/// The enumeration group (10) as Zephyr ≥ 3.5 implements it (docs/protocol/groups.md §11): count, list, single and
/// details of the groups the device really has (``SimulatedDeviceContext/supportedGroups``).
public struct EnumerationGroup: SimulatedGroup {
    public var group: SMPGroup { .enumeration }

    /// Creates the group.
    public init() {}

    public func implements(command: UInt8) -> Bool {
        (EnumerationCommandID.count...EnumerationCommandID.details).contains(command)
    }

    public func handle(_ request: SimulatedRequest, context: inout SimulatedDeviceContext) throws(SimulatedError) -> CBORMap {
        let groups = context.supportedGroups
        switch (request.command, request.operation) {
        case (EnumerationCommandID.count, .read):
            return ["count": .integer(groups.count)]
        case (EnumerationCommandID.list, .read):
            return ["groups": .array(groups.map { .unsigned(UInt64($0.group.rawValue)) })]
        case (EnumerationCommandID.single, .read):
            let index = try request.fields(["index": .unsigned]).unsigned("index") ?? 0
            guard index < UInt64(groups.count) else { throw .groupError(EnumerationGroupError.indexTooLarge) }
            var answer: CBORMap = ["group": .unsigned(UInt64(groups[Int(index)].group.rawValue))]
            if index == UInt64(groups.count - 1) { answer["end"] = .bool(true) }
            return answer
        case (EnumerationCommandID.details, .read):
            return try details(request, groups: groups)
        default:
            throw .notSupported
        }
    }

    /// Details: every group, or those asked for that the device has, in the device's order.
    private func details(_ request: SimulatedRequest, groups: [SimulatedGroupInfo]) throws(SimulatedError) -> CBORMap {
        var wanted: Set<UInt64>?
        if let asked = try request.payload()["groups"] {
            guard let items = asked.arrayValue else { throw .invalidValue }
            var ids = Set<UInt64>()
            for item in items {
                guard let id = item.uint64Value else { throw .invalidValue }
                ids.insert(id)
            }
            wanted = ids
        }
        let chosen = groups.filter { wanted?.contains(UInt64($0.group.rawValue)) ?? true }
        return ["groups": .array(chosen.map { info in
            ["group": .unsigned(UInt64(info.group.rawValue)), "name": .text(info.name), "handlers": .integer(info.handlerCount)]
        })]
    }
}
