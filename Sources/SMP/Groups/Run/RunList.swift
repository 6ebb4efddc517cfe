import CBOR

/// List the device's test suites (run command 1, Mynewt `runtest`).
public struct RunList: SMPCommand {
    /// Creates the request.
    public init() {}

    public var request: SMPRequest {
        SMPRequest(group: .run, command: RunCommandID.list, operation: .read, name: "run list")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) -> [String] {
        try payload.textArray("run_list")
    }
}
