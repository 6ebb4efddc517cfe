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

    /// The whole content of a regular file of at most `limit` bytes (the size is checked first,
    /// so a huge file costs nothing); a data error otherwise.
    static func contents(_ path: String, limit: Int) throws(CLIError) -> [UInt8] {
        let file = try source(path)
        guard file.count <= limit else {
            throw CLIError(.dataError, "\(path) has \(file.count) bytes, more than the \(limit) bytes smpctl reads whole", hint: "check the file name")
        }
        do {
            return try file.read(offset: 0, length: file.count)
        } catch {
            throw CLIError(error)
        }
    }

    /// The CLI error for a local file that cannot be used.
    static func cliError(_ error: FileAccessError) -> CLIError {
        CLIError(.dataError, error.description, hint: error.isMissing ? "check the local path" : nil)
    }
}
