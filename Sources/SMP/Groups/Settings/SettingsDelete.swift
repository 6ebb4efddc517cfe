import CBOR

/// Deletes one setting (settings command 1, write).
public struct SettingsDelete: SMPCommand {
    /// The setting's full name.
    public var name: String

    /// Creates the request.
    public init(_ name: String) { self.name = name }

    public var request: SMPRequest {
        SMPRequest(
            group: .settings, command: SettingsCommandID.delete, operation: .write, payload: ["name": .text(name)],
            isRetrySafe: false, name: "settings delete")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) {}
}
