import CBOR

/// Echo (OS command 0): the device answers with the same text. The usual "ping".
public struct OSEcho: SMPCommand {
    /// The text to echo.
    public var text: String

    /// Creates an echo request.
    public init(_ text: String) { self.text = text }

    public var request: SMPRequest {
        SMPRequest(group: .os, command: OSCommandID.echo, operation: .write, payload: ["d": .text(text)], isRetrySafe: true, name: "os echo")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) -> String {
        try payload.text("r")
    }
}
