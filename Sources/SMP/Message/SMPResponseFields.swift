import CBOR

/// Typed reading of response fields, with errors that name the field and what was found.
extension CBORMap {
    /// The value of a field that must be present.
    public func field(_ key: String) throws(SMPResponseError) -> CBOR {
        guard let value = self[key] else { throw SMPResponseError("the response has no \"\(key)\" field") }
        return value
    }

    /// A text field that must be present.
    public func text(_ key: String) throws(SMPResponseError) -> String {
        try Self.expect(field(key), key, "a text string", \.stringValue)
    }

    /// An integer field that must be present.
    public func integer(_ key: String) throws(SMPResponseError) -> Int64 {
        try Self.expect(field(key), key, "an integer", \.int64Value)
    }

    /// A non-negative integer field that must be present.
    public func unsigned(_ key: String) throws(SMPResponseError) -> UInt64 {
        try Self.expect(field(key), key, "a non-negative integer", \.uint64Value)
    }

    /// A map field that must be present.
    public func map(_ key: String) throws(SMPResponseError) -> CBORMap {
        try Self.expect(field(key), key, "a map", \.mapValue)
    }

    /// An optional text field (absent → nil; present with another type → error).
    public func optionalText(_ key: String) throws(SMPResponseError) -> String? {
        try self[key].map { value throws(SMPResponseError) in try Self.expect(value, key, "a text string", \.stringValue) }
    }

    /// An optional integer field.
    public func optionalInteger(_ key: String) throws(SMPResponseError) -> Int64? {
        try self[key].map { value throws(SMPResponseError) in try Self.expect(value, key, "an integer", \.int64Value) }
    }

    /// An optional boolean field.
    public func optionalBool(_ key: String) throws(SMPResponseError) -> Bool? {
        try self[key].map { value throws(SMPResponseError) in try Self.expect(value, key, "a boolean", \.boolValue) }
    }

    private static func expect<T>(
        _ value: CBOR, _ key: String, _ kind: String, _ read: (CBOR) -> T?
    ) throws(SMPResponseError) -> T {
        guard let typed = read(value) else {
            throw SMPResponseError("field \"\(key)\" should be \(kind) but is \(value.typeName) \(value.diagnosticDescription)")
        }
        return typed
    }
}
