import CBOR
import SMP
import SMPSimulator

/// A group at the first per-user ID (64) whose command 0 answers one field of every CBOR kind,
/// to check how `raw` turns CBOR into text and JSON.
struct CBORKindsGroup: SimulatedGroup {
    static let id = SMPGroup(rawValue: 64)

    var group: SMPGroup { Self.id }

    func implements(command: UInt8) -> Bool { command == 0 }

    mutating func handle(_ request: SimulatedRequest, context: inout SimulatedDeviceContext) throws(SimulatedError) -> CBORMap {
        guard request.command == 0 else { throw .notSupported }
        var inner = CBORMap()
        inner.append(key: .unsigned(1), value: .text("one"))
        inner.append(key: .bytes([0x00]), value: .bool(true))
        inner.append(key: .text("k"), value: .bool(false))
        var map = CBORMap()
        for (key, value): (String, CBOR) in [
            ("int", .unsigned(4_294_967_296)), ("neg", .negative(9)), ("big", .negative(UInt64.max)),
            ("bytes", .bytes([0x0a, 0x1b])), ("text", .text("é\"\n")), ("array", .array([.unsigned(1), .text("two"), .null])),
            ("map", .map(inner)), ("tag", .tagged(1, .unsigned(1_700_000_000))), ("half", .float(1.5)), ("whole", .float(2)),
            ("nan", .float(.nan)), ("inf", .float(-.infinity)), ("undef", .undefined), ("simple", .simple(16)),
        ] {
            map.append(key: .text(key), value: value)
        }
        return map
    }
}

/// An OS group whose echo answers with other text than it was sent, like a broken device.
struct WrongEchoGroup: SimulatedGroup {
    var group: SMPGroup { .os }

    func implements(command: UInt8) -> Bool { command == 0 }

    mutating func handle(_ request: SimulatedRequest, context: inout SimulatedDeviceContext) throws(SimulatedError) -> CBORMap {
        guard request.command == 0 else { throw .notSupported }
        return ["r": .text("something else")]
    }
}
