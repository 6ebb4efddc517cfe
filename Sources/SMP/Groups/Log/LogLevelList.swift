import CBOR

/// The log levels a device knows, name → ID (log command 4, Mynewt: `level_map`).
public struct LogLevelList: SMPCommand {
    /// Creates the request.
    public init() {}

    public var request: SMPRequest {
        SMPRequest(group: .log, command: LogCommandID.levelList, operation: .read, name: "log level list")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) -> [LogNamedID] {
        try payload.namedIntegers("level_map").map { LogNamedID(name: $0.name, id: $0.value) }
    }
}
