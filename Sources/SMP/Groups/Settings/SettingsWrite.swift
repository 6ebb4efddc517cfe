import CBOR

/// Sets one setting's value (settings command 0, write). The device applies it at the next
/// ``SettingsCommit`` and keeps it over a reset only after ``SettingsSave``.
public struct SettingsWrite: SMPCommand {
    /// The setting's full name.
    public var name: String
    /// The raw value (see ``SettingsValueType`` for common encodings).
    public var value: [UInt8]

    /// Creates the request.
    public init(_ name: String, value: [UInt8]) {
        self.name = name
        self.value = value
    }

    public var request: SMPRequest {
        SMPRequest(
            group: .settings, command: SettingsCommandID.readWrite, operation: .write,
            payload: ["name": .text(name), "val": .bytes(value)], isRetrySafe: true, name: "settings write")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) {}
}
