import SMP

/// Names what Zephyr's terse answers to an upload mean. Its fs_mgmt answers
/// `MOUNT_POINT_NOT_FOUND` whenever the file cannot be created for lack of its directory (a
/// missing directory as well as a missing mount point) and `UNKNOWN` when a component of the
/// path is a file: `fs stat` of the path's ancestors tells which.
enum FSRemoteDiagnosis {
    /// A clearer error for `error`, the failure of putting `remote`, or nil to report it as it is.
    static func explain(_ error: any Error, remote: String, client: SMPClient) async -> CLIError? {
        guard case SMPError.device(let deviceError, _) = error, case .groupError(let groupError) = deviceError,
              let code = FSDeviceAnswer.fileSystemCode(deviceError),
              code == .mountPointNotFound || code == .unknown
        else { return nil }
        let name = "the device answered \(groupError.name)"
        var missing: String?
        var folder = parent(of: remote)
        // Up from the file's folder to the first one that exists: the one below it is missing.
        while folder != "/" {
            switch try? await FSDeviceAnswer.stat(client, folder) {
            case .directory?:
                guard let missing else { return nil }
                return CLIError(
                    .deviceError, "the directory \(missing) does not exist on the device (\(name))",
                    hint: "fs_mgmt cannot create directories: create \(missing) on the device first, or put the file into an existing directory such as \(folder)/",
                    deviceError: deviceError)
            case .missing?:
                missing = folder
                folder = parent(of: folder)
            case .file?:
                return CLIError(
                    .deviceError, "\(folder) is a file on the device, not a directory: \(remote) cannot be created (\(name))",
                    hint: "give a path in an existing directory", deviceError: deviceError)
            case .unknown?, nil:
                return nil
            }
        }
        guard let missing else {
            // `/name`: a file at the top level, where only mount points are.
            guard code == .mountPointNotFound else { return nil }
            return CLIError(
                .deviceError, "\(remote) is not inside a mounted file system (\(name))",
                hint: "a path starts with a mount point, e.g. /lfs1\(remote)", deviceError: deviceError)
        }
        return CLIError(
            .deviceError, "no file system is mounted at \(missing) on the device (\(name))",
            hint: "a path starts with a mount point, e.g. /lfs1/data.bin", deviceError: deviceError)
    }

    /// The folder that holds `path` on the device (`/` for a top-level name).
    static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/"), slash != trimmed.startIndex else { return "/" }
        return String(trimmed[..<slash])
    }
}
