import SMP

/// The REMOTE of `fs put`: a path that ends in `/` or names a directory on the device means
/// the local file's name inside that directory (as `cp FILE DIR` does).
enum FSRemoteDestination {
    /// The file's path on the device for `remote` and the local file's name.
    static func resolve(_ remote: String, localName: String, client: SMPClient) async throws -> String {
        if remote.hasSuffix("/") { return remote + localName }
        return try await FSDeviceAnswer.stat(client, remote) == .directory ? remote + "/" + localName : remote
    }

    /// The last component of a local path (`dir/data.bin` → `data.bin`).
    static func localName(_ local: String) -> String {
        String(local.split(separator: "/").last ?? Substring(local))
    }
}
