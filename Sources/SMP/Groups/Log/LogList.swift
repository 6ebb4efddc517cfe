import CBOR

/// The names of the device's logs (log command 5, Mynewt: `log_list`).
public struct LogList: SMPCommand {
    /// Creates the request.
    public init() {}

    public var request: SMPRequest {
        SMPRequest(group: .log, command: LogCommandID.logList, operation: .read, name: "log list")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) -> [String] {
        try payload.textArray("log_list")
    }
}
