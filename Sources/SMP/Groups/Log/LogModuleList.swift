import CBOR

/// The log modules a device knows, name → ID (log command 3, Mynewt: `module_map`).
public struct LogModuleList: SMPCommand {
    /// Creates the request.
    public init() {}

    public var request: SMPRequest {
        SMPRequest(group: .log, command: LogCommandID.moduleList, operation: .read, name: "log module list")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) -> [LogNamedID] {
        try payload.namedIntegers("module_map").map { LogNamedID(name: $0.name, id: $0.value) }
    }
}
