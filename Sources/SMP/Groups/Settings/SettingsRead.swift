import CBOR

/// Reads one setting's value (settings command 0, read; docs/protocol/groups.md §6).
public struct SettingsRead: SMPCommand {
    /// The setting's full name, such as `"bt/name"`.
    public var name: String
    /// The most bytes to return; nil lets the device use its own limit.
    public var maximumSize: Int?

    /// Creates the request.
    public init(_ name: String, maximumSize: Int? = nil) {
        self.name = name
        self.maximumSize = maximumSize
    }

    public var request: SMPRequest {
        var payload: CBORMap = ["name": .text(name)]
        if let maximumSize { payload["max_size"] = .unsigned(UInt64(max(0, maximumSize))) }
        return SMPRequest(
            group: .settings, command: SettingsCommandID.readWrite, operation: .read, payload: payload, name: "settings read")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) -> SettingsValue {
        guard let value = try payload.field("val").bytesValue else {
            throw SMPResponseError("field \"val\" should be a byte string but is \(payload["val"]?.typeName ?? "absent")")
        }
        let deviceLimit = try payload.optionalInteger("max_size").map(Int.init)
        return SettingsValue(bytes: value, deviceMaximumSize: deviceLimit)
    }
}

/// A setting's value as the device returned it.
public struct SettingsValue: Sendable, Hashable {
    /// The value's bytes (the device does not say how to interpret them).
    public var bytes: [UInt8]
    /// The device's own maximum, present when it is smaller than the requested `max_size`: the
    /// value may then be cut to this many bytes.
    public var deviceMaximumSize: Int?

    /// Creates a value.
    public init(bytes: [UInt8], deviceMaximumSize: Int? = nil) {
        self.bytes = bytes
        self.deviceMaximumSize = deviceMaximumSize
    }
}
