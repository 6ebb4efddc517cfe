import CBOR

/// A typed SMP command: its request and how to read its response.
///
/// Adding a command is adding a small type that conforms to this protocol; the client needs no
/// change. Groups keep their commands in `Groups/<Group>/`.
public protocol SMPCommand: Sendable {
    /// What the command's response decodes to.
    associatedtype Response: Sendable

    /// The request to send.
    var request: SMPRequest { get }

    /// Reads a successful response payload (the device reported no error).
    func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) -> Response
}

/// A response payload that lacks a field or holds one of the wrong type.
public struct SMPResponseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the payload.
    public var detail: String

    /// Creates an error.
    public init(_ detail: String) { self.detail = detail }

    public var description: String { detail }
}
