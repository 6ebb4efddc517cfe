import SMP

/// Local file failures as CLI errors (any command that reads or writes a local file).
enum FSLocalFile {
    /// Opens a file to upload: a missing or unreadable file, a directory, a FIFO or a device is a
    /// data error (exit 65).
    static func source(_ path: String) throws(CLIError) -> FileUploadSource {
        do {
            return try FileUploadSource(path: path)
        } catch {
            throw cliError(error)
        }
    }

    /// The CLI error for a local file that cannot be used.
    static func cliError(_ error: FileAccessError) -> CLIError {
        CLIError(.dataError, error.description, hint: error.isMissing ? "check the local path" : nil)
    }
}
