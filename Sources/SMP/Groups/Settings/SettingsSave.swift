import CBOR

/// Saves the settings to persistent storage (settings command 3, write): all of them, or one
/// subtree.
public struct SettingsSave: SMPCommand {
    /// The subtree to save, such as `"bt"`; nil saves everything.
    public var subtree: String?

    /// Creates the request.
    public init(subtree: String? = nil) { self.subtree = subtree }

    public var request: SMPRequest {
        let payload: CBORMap = subtree.map { ["name": .text($0)] } ?? [:]
        return SMPRequest(
            group: .settings, command: SettingsCommandID.loadSave, operation: .write, payload: payload, isRetrySafe: true,
            name: "settings save")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) {}
}
