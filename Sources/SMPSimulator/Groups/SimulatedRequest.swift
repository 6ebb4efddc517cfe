import CBOR
import SMP

/// One request as a simulated group receives it.
///
/// The payload is decoded only when a handler asks for it, as on Zephyr, where a handler that
/// reads no parameters never looks at the payload.
public struct SimulatedRequest: Sendable, Hashable {
    /// Management group.
    public var group: SMPGroup
    /// Command ID.
    public var command: UInt8
    /// `.read` or `.write` (requests with other operation bits never reach a group).
    public var operation: SMPOperation
    /// The request's version bits (0 = SMP v1, 1 = SMP v2).
    public var versionBits: UInt8
    /// Sequence number.
    public var sequence: UInt8
    /// The raw CBOR payload.
    public var payloadBytes: [UInt8]

    /// Creates a request.
    public init(
        group: SMPGroup, command: UInt8, operation: SMPOperation, versionBits: UInt8 = 1, sequence: UInt8 = 0,
        payloadBytes: [UInt8]
    ) {
        self.group = group
        self.command = command
        self.operation = operation
        self.versionBits = versionBits
        self.sequence = sequence
        self.payloadBytes = payloadBytes
    }

    /// Creates a request with this payload map.
    public init(group: SMPGroup, command: UInt8, operation: SMPOperation, payload: CBORMap) {
        self.init(group: group, command: command, operation: operation, payloadBytes: CBOR.map(payload).encoded())
    }

    /// The payload map; `MGMT_ERR_EINVAL` when it is not valid CBOR or not a map.
    public func payload() throws(SimulatedError) -> CBORMap {
        guard let item = try? CBORDecoder().decode(payloadBytes), case .map(let map) = item else {
            throw .invalidValue
        }
        return map
    }

    /// Decodes the fields a handler knows, as Zephyr's `zcbor_map_decode_bulk()` does.
    ///
    /// The payload must be a map with text keys. Keys not in `expected` are skipped; a known key
    /// that occurs twice or holds a value of another kind fails with `MGMT_ERR_EINVAL`.
    public func fields(_ expected: [String: SimulatedFieldKind]) throws(SimulatedError) -> SimulatedFields {
        var found: [String: CBOR] = [:]
        for entry in try payload() {
            guard let key = entry.key.stringValue else { throw .invalidValue }
            guard let kind = expected[key] else { continue }
            guard found[key] == nil, kind.matches(entry.value) else { throw .invalidValue }
            found[key] = entry.value
        }
        return SimulatedFields(values: found)
    }
}

/// The CBOR kind a request field must have.
public enum SimulatedFieldKind: Sendable, Hashable {
    /// A text string.
    case text
    /// A byte string.
    case bytes
    /// `true` or `false`.
    case bool
    /// A non-negative integer.
    case unsigned
    /// An integer of either sign.
    case integer
    /// A map.
    case map

    func matches(_ value: CBOR) -> Bool {
        switch (self, value) {
        case (.text, .text), (.bytes, .bytes), (.bool, .bool), (.unsigned, .unsigned), (.integer, .unsigned),
             (.integer, .negative), (.map, .map):
            return true
        default:
            return false
        }
    }
}

/// The decoded fields of a request; absent fields are nil.
public struct SimulatedFields: Sendable, Hashable {
    /// The fields found, by key.
    public var values: [String: CBOR]

    /// Creates decoded fields.
    public init(values: [String: CBOR]) { self.values = values }

    /// Whether the request holds this field.
    public func contains(_ key: String) -> Bool { values[key] != nil }

    /// A text field.
    public func text(_ key: String) -> String? { values[key]?.stringValue }
    /// A byte-string field.
    public func bytes(_ key: String) -> [UInt8]? { values[key]?.bytesValue }
    /// A boolean field.
    public func bool(_ key: String) -> Bool? { values[key]?.boolValue }
    /// A non-negative integer field.
    public func unsigned(_ key: String) -> UInt64? { values[key]?.uint64Value }
    /// An integer field (nil also when it does not fit in 64 bits).
    public func integer(_ key: String) -> Int64? { values[key]?.int64Value }
    /// A map field.
    public func map(_ key: String) -> CBORMap? { values[key]?.mapValue }
}
