import CBOR

/// How many management groups the device has (enumeration command 0).
public struct EnumerationCount: SMPCommand {
    /// Creates the request.
    public init() {}

    public var request: SMPRequest {
        SMPRequest(group: .enumeration, command: EnumerationCommandID.count, operation: .read, name: "enum count")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) -> UInt64 {
        try payload.unsigned("count")
    }
}
