import CBOR

/// Reloads the settings from persistent storage (settings command 3, read), dropping unsaved
/// writes of the values stored there.
public struct SettingsLoad: SMPCommand {
    /// Creates the request.
    public init() {}

    public var request: SMPRequest {
        SMPRequest(group: .settings, command: SettingsCommandID.loadSave, operation: .read, name: "settings load")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) {}
}
