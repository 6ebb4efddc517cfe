import CBOR

/// Reads the device's SMP buffer size and count (OS command 6).
public struct OSParameters: SMPCommand {
    /// Creates the request.
    public init() {}

    public var request: SMPRequest { SMPRequest(group: .os, command: OSCommandID.parameters, operation: .read, name: "os parameters") }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) -> MCUmgrParameters {
        let size = try payload.unsigned("buf_size")
        let count = try payload.unsigned("buf_count")
        guard (1...65_535 + UInt64(SMPHeader.size)).contains(size), (1...1024).contains(count) else {
            throw SMPResponseError("implausible parameters buf_size=\(size) buf_count=\(count)")
        }
        return MCUmgrParameters(bufferSize: Int(size), bufferCount: Int(count))
    }
}
