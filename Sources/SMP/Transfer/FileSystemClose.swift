/// Close, as a download sends it first and an upload last.
public enum FileSystemClose {
    /// Sends close; a device without the command (Zephyr < 3.3: rc 8) holds no file open between
    /// downloads anyway.
    public static func closeIgnoringUnsupported(_ client: SMPClient) async throws {
        do {
            try await client.send(FileClose())
        } catch SMPError.device(.returnCode(let code, _, _), _) where code == .notSupported {
            return
        }
    }
}
