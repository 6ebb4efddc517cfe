import CBOR

/// Typed reading of array fields, with errors that name the field, the element and what was found.
extension CBORMap {
    /// An array field that must be present.
    public func arrayField(_ key: String) throws(SMPResponseError) -> [CBOR] {
        let value = try field(key)
        guard let items = value.arrayValue else {
            throw SMPResponseError("field \"\(key)\" should be an array but is \(value.typeName) \(value.diagnosticDescription)")
        }
        return items
    }

    /// An array of text strings that must be present.
    public func textArray(_ key: String) throws(SMPResponseError) -> [String] {
        try elements(key, "a text string", \.stringValue)
    }

    /// An array of non-negative integers that must be present.
    public func unsignedArray(_ key: String) throws(SMPResponseError) -> [UInt64] {
        try elements(key, "a non-negative integer", \.uint64Value)
    }

    /// An array of maps that must be present.
    public func mapArray(_ key: String) throws(SMPResponseError) -> [CBORMap] {
        try elements(key, "a map", \.mapValue)
    }

    /// A map of names to integers that must be present (e.g. Mynewt's `module_map`), in the
    /// device's order.
    public func namedIntegers(_ key: String) throws(SMPResponseError) -> [(name: String, value: Int64)] {
        var pairs: [(name: String, value: Int64)] = []
        for entry in try map(key) {
            guard let name = entry.key.stringValue, let value = entry.value.int64Value else {
                throw SMPResponseError(
                    "field \"\(key)\" should map text to integers but holds \(entry.key.typeName) → \(entry.value.typeName)")
            }
            pairs.append((name, value))
        }
        return pairs
    }

    private func elements<T>(_ key: String, _ kind: String, _ read: (CBOR) -> T?) throws(SMPResponseError) -> [T] {
        var result: [T] = []
        for (index, item) in try arrayField(key).enumerated() {
            guard let typed = read(item) else {
                throw SMPResponseError(
                    "element \(index) of \"\(key)\" should be \(kind) but is \(item.typeName) \(item.diagnosticDescription)")
            }
            result.append(typed)
        }
        return result
    }
}
