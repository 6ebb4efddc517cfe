import SMP

/// The device's hash of a file, or of its first bytes, next to the same hash of local bytes
/// (the library's comparison): how `--verify` checks a transfer and how a resume checks the part
/// both sides hold.
typealias FSHashComparison = RemoteFileHashComparison

extension RemoteFileHashComparison {
    /// `{"type", "device", "local", "length", "match"}`.
    var json: JSONValue {
        .object([
            ("type", .string(type)), ("device", .string(device.hex)), ("local", .string(Hex.string(local))),
            ("length", .uint(device.length)), ("match", .bool(matches)),
        ])
    }

    /// The failure of `--verify`.
    func mismatch(_ what: String) -> CLIError {
        CLIError(
            .deviceError,
            "verification failed: the device's \(type) of \(what) (\(device.length) bytes) is \(device.hex), the local file's (\(expectedLength) bytes) is \(Hex.string(local))",
            hint: "transfer it again with --restart")
    }
}
