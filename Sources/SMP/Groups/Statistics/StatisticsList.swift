import CBOR

/// List the statistics groups (statistics command 1): their names, in the device's order.
///
/// Older Zephyr revisions put `"rc": 0` in this answer; the client treats that as success.
public struct StatisticsList: SMPCommand {
    /// Creates the request.
    public init() {}

    public var request: SMPRequest {
        SMPRequest(group: .statistics, command: StatisticsCommandID.list, operation: .read, name: "stat list")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) -> [String] {
        try payload.textArray("stat_list")
    }
}
