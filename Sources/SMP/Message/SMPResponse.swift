import CBOR

/// A response matched to its request.
public struct SMPResponse: Sendable, Hashable, CustomStringConvertible {
    /// The response header.
    public var header: SMPHeader
    /// The payload map.
    public var payload: CBORMap

    /// Creates a response.
    public init(header: SMPHeader, payload: CBORMap) {
        self.header = header
        self.payload = payload
    }

    /// The error the device answered with, or nil on success (no `err`, and `rc` absent or 0).
    public var deviceError: SMPDeviceError? {
        SMPDeviceError(payload: payload, requestGroup: header.group.rawValue)
    }

    public var description: String { SMPMessage(header: header, payload: payload).description }
}
