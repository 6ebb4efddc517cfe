import CBOR

/// Applies every setting written but not yet applied (settings command 2, write).
public struct SettingsCommit: SMPCommand {
    /// Creates the request.
    public init() {}

    public var request: SMPRequest {
        SMPRequest(group: .settings, command: SettingsCommandID.commit, operation: .write, isRetrySafe: true, name: "settings commit")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) {}
}
