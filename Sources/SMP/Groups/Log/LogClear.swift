import CBOR

/// Clear one log or all of them (log command 1, Mynewt).
public struct LogClear: SMPCommand {
    /// The log to clear; nil clears every log.
    public var logName: String?

    /// Creates the request.
    public init(logName: String? = nil) { self.logName = logName }

    public var request: SMPRequest {
        SMPRequest(
            group: .log, command: LogCommandID.clear, operation: .write,
            payload: logName.map { ["log_name": .text($0)] } ?? [:], name: "log clear")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) {}
}
