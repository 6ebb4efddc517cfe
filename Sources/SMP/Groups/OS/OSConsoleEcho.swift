import CBOR

/// Console echo control (OS command 1): turns the device console's echo on or off.
/// Mynewt implements it; Zephyr answers "not supported"; MCUboot accepts and ignores it.
public struct OSConsoleEcho: SMPCommand {
    /// Whether the console should echo.
    public var enabled: Bool

    /// Creates the request.
    public init(enabled: Bool) { self.enabled = enabled }

    public var request: SMPRequest {
        SMPRequest(
            group: .os, command: OSCommandID.consoleEcho, operation: .write,
            payload: ["echo": .unsigned(enabled ? 1 : 0)], isRetrySafe: true, name: "os console echo")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) {}
}
