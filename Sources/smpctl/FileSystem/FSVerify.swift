import SMP

/// `--verify`: the device's hash of the whole remote file against the local file.
enum FSVerify {
    /// The comparison, or the CLI error when the hashes (or lengths) differ. An empty file is
    /// checked by its size (the device cannot hash an empty file).
    static func check(_ client: SMPClient, remote: String, local: some UploadSource) async throws -> FSHashComparison? {
        guard local.count > 0 else {
            let size = try await client.send(FileStatus(name: remote))
            guard size == 0 else {
                throw CLIError(.deviceError, "verification failed: \(remote) has \(size) bytes on the device, the local file is empty")
            }
            return nil
        }
        let comparison = try await FSHashComparison.compare(client, name: remote, local: local, length: UInt64(local.count))
        guard comparison.matches else { throw comparison.mismatch(remote) }
        return comparison
    }
}
