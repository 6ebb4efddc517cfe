/// The device's hash of a file, or of its first bytes, next to the same hash of local bytes: how a
/// transfer checks the part both sides hold before it resumes, and the whole file after it.
public struct RemoteFileHashComparison: Sendable, Hashable {
    /// The type compared (`sha256`, `crc32`).
    public var type: String
    /// The device's hash and the number of bytes it hashed.
    public var device: FileHash.Response
    /// The local hash of the same range.
    public var local: [UInt8]
    /// The number of bytes that should have been hashed.
    public var expectedLength: UInt64

    /// Creates a comparison.
    public init(type: String, device: FileHash.Response, local: [UInt8], expectedLength: UInt64) {
        self.type = type
        self.device = device
        self.local = local
        self.expectedLength = expectedLength
    }

    /// Whether both sides hashed the same bytes to the same value.
    public var matches: Bool { device.length == expectedLength && device.output == local }

    /// Asks the device for the hash of the first `length` bytes of `name` (sha256 if it has it,
    /// else crc32; its default when it cannot list its types) and hashes `local` alike.
    public static func compare(_ client: SMPClient, name: String, local: some UploadSource, length: UInt64) async throws -> RemoteFileHashComparison {
        let type = try await preferredType(client)
        let device = try await client.send(FileHash(name: name, type: type, length: length))
        guard let hash = try LocalFileHash.hash(local, type: device.type, length: length) else {
            throw TransferVerificationError.unknownHashType(device.type)
        }
        return RemoteFileHashComparison(type: device.type, device: device, local: hash, expectedLength: length)
    }

    /// The first of sha256, crc32 the device lists; nil (the device's default) when it cannot list
    /// them. Asked once per connection.
    public static func preferredType(_ client: SMPClient) async throws -> String? {
        if let known = await client.fileHashType { return known }
        let type: String?
        do {
            let types = try await client.send(FileHashTypes()).map(\.name)
            guard let usable = LocalFileHash.types.first(where: types.contains) else { throw TransferVerificationError.noUsableHashType(types) }
            type = usable
        } catch SMPError.device(.returnCode(let code, _, _), _) where code == .notSupported {
            type = nil
        }
        await client.remember(fileHashType: type)
        return type
    }
}
