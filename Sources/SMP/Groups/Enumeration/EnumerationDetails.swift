import CBOR

/// Name and handler count of some or all of the device's groups (enumeration command 3).
///
/// The name and the handler count are optional on the device (`MCUMGR_GRP_ENUM_DETAILS_NAME`,
/// `MCUMGR_GRP_ENUM_DETAILS_HANDLERS`); applications may add further fields, kept in ``Details/extra``.
public struct EnumerationDetails: SMPCommand {
    /// What the device reports about one group.
    public struct Details: Sendable, Hashable {
        /// The group.
        public var group: SMPGroup
        /// Its name on the device (e.g. `"os mgmt"`), when reported.
        public var name: String?
        /// How many command handlers it has, when reported.
        public var handlers: UInt64?
        /// Fields an application hook added, in order.
        public var extra: CBORMap

        /// Creates details.
        public init(group: SMPGroup, name: String? = nil, handlers: UInt64? = nil, extra: CBORMap = [:]) {
            self.group = group
            self.name = name
            self.handlers = handlers
            self.extra = extra
        }
    }

    /// The groups to ask about; nil asks about all.
    public var groups: [SMPGroup]?

    /// Creates the request.
    public init(groups: [SMPGroup]? = nil) { self.groups = groups }

    public var request: SMPRequest {
        let payload: CBORMap = groups.map { ["groups": .array($0.map { .unsigned(UInt64($0.rawValue)) })] } ?? [:]
        return SMPRequest(
            group: .enumeration, command: EnumerationCommandID.details, operation: .read, payload: payload,
            name: "enum details")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) -> [Details] {
        var result: [Details] = []
        for map in try payload.mapArray("groups") {
            var details = Details(group: try SMPGroup(reportedID: map.unsigned("group")))
            details.name = try map.optionalText("name")
            if map["handlers"] != nil { details.handlers = try map.unsigned("handlers") }
            details.extra = CBORMap(map.filter { !["group", "name", "handlers"].contains($0.key.stringValue ?? "") })
            result.append(details)
        }
        return result
    }
}
