import CBOR

/// Read one statistics group (statistics command 0): its counters, in the device's order.
///
/// An unknown name is answered `STAT_MGMT_ERR_INVALID_STAT_NAME`, which Zephyr reports with
/// `err.group` 63 (read as a statistics error, see ``SMPGroupError/requestGroup``), and SMP v1
/// devices with rc 5 (`MGMT_ERR_ENOENT`).
public struct StatisticsRead: SMPCommand {
    /// The statistics group's name, e.g. `smp_svr_stats`.
    public var name: String

    /// Creates the request.
    public init(name: String) { self.name = name }

    public var request: SMPRequest {
        SMPRequest(
            group: .statistics, command: StatisticsCommandID.read, operation: .read, payload: ["name": .text(name)],
            name: "stat read \"\(name)\"")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) -> StatisticsGroupData {
        var fields: [StatisticsGroupData.Field] = []
        for entry in try payload.map("fields") {
            guard let field = entry.key.stringValue else {
                throw SMPResponseError("a statistic's name is \(entry.key.typeName), not text")
            }
            guard let value = entry.value.uint64Value else {
                throw SMPResponseError(
                    "statistic \"\(field)\" should be a non-negative integer but is \(entry.value.typeName)")
            }
            fields.append(.init(name: field, value: value))
        }
        return StatisticsGroupData(name: try payload.optionalText("name") ?? name, fields: fields)
    }
}
