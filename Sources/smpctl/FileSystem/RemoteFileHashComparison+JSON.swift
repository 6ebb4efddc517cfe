import JSON
import SMP

extension RemoteFileHashComparison {
    /// `{"type", "device", "local", "length", "match"}`: how a transfer's result shows its check.
    var json: JSONValue {
        .object([
            ("type", .string(type)), ("device", .string(device.hex)), ("local", .string(Hex.string(local))),
            ("length", .uint(device.length)), ("match", .bool(matches)),
        ])
    }
}
