import CBOR

/// A resource a SUIT device asks for while it processes an envelope: upload it with
/// ``SUITUploadKind/resource(sessionID:)``.
public struct SUITResourceRequest: Sendable, Hashable, CustomStringConvertible {
    /// The stream session the upload must name.
    public var sessionID: UInt64
    /// The resource's URI, such as `file://app.bin`.
    public var resourceID: String

    /// Creates a request.
    public init(sessionID: UInt64, resourceID: String) {
        self.sessionID = sessionID
        self.resourceID = resourceID
    }

    /// The file name of a `file://NAME` URI, or nil for another scheme.
    public var fileName: String? {
        let scheme = "file://"
        guard resourceID.lowercased().hasPrefix(scheme) else { return nil }
        return String(resourceID.dropFirst(scheme.count))
    }

    public var description: String { "\(resourceID) (session \(sessionID))" }
}

/// Asks a SUIT device which resource it wants (SUIT command 3, "missing image state", read):
/// nil when it wants none.
public struct SUITPoll: SMPCommand {
    /// Creates the request.
    public init() {}

    public var request: SMPRequest {
        SMPRequest(group: .suit, command: SUITCommandID.poll, operation: .read, payload: [:], name: "suit poll")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) -> SUITResourceRequest? {
        guard payload["stream_session_id"] != nil else { return nil }
        let session = try payload.unsigned("stream_session_id")
        let resource = try payload.field("resource_id")
        // NCS sends a byte string; a text string is taken as well.
        guard let id = resource.bytesValue.flatMap({ String(validating: $0, as: UTF8.self) }) ?? resource.stringValue else {
            throw SMPResponseError("field \"resource_id\" should be a UTF-8 byte string but is \(resource.typeName)")
        }
        return SUITResourceRequest(sessionID: session, resourceID: id)
    }
}
