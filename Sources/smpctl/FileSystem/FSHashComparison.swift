import SMP

/// The device's hash of a file, or of its first bytes, next to the same hash of local bytes:
/// how `--verify` checks a transfer and how a resume checks the part both sides hold.
struct FSHashComparison {
    /// The type compared (`sha256`, `crc32`).
    var type: String
    /// The device's hash and the number of bytes it hashed.
    var device: FileHash.Response
    /// The local hash of the same range.
    var local: [UInt8]
    /// The number of bytes that should have been hashed.
    var expectedLength: UInt64

    /// Whether both sides hashed the same bytes to the same value.
    var matches: Bool { device.length == expectedLength && device.output == local }

    /// Asks the device for the hash of the first `length` bytes of `name` (sha256 if it has it,
    /// else crc32; its default when it cannot list its types) and hashes `local` alike.
    static func compare(_ client: SMPClient, name: String, local: some UploadSource, length: UInt64) async throws -> FSHashComparison {
        let type = try await preferredType(client)
        let device = try await client.send(FileHash(name: name, type: type, length: length))
        guard let hash = try LocalFileHash.hash(local, type: device.type, length: length) else {
            throw CLIError(.protocolError, "the device answered a \(device.type) hash, which smpctl cannot compute")
        }
        return FSHashComparison(type: device.type, device: device, local: hash, expectedLength: length)
    }

    /// The first of sha256, crc32 the device lists; nil (the device's default) when it cannot list them.
    static func preferredType(_ client: SMPClient) async throws -> String? {
        do {
            let types = try await client.send(FileHashTypes()).map(\.name)
            guard let type = LocalFileHash.types.first(where: types.contains) else {
                throw CLIError(.deviceError, "the device offers no hash type smpctl can compute (it lists: \(types.joined(separator: ", ")))")
            }
            return type
        } catch SMPError.device(.returnCode(let code, _, _), _) where code == .notSupported {
            return nil
        }
    }

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
