import SMP

extension RemotePathDiagnosis {
    /// How `fs put` reports a put of `remote` that failed so.
    func cliError(remote: String) -> CLIError {
        let name = "the device answered \(groupError.name)"
        let deviceError = SMPDeviceError.groupError(groupError)
        switch problem {
        case .missingDirectory(let missing, let existing):
            return CLIError(
                .deviceError, "the directory \(missing) does not exist on the device (\(name))",
                hint: "fs_mgmt cannot create directories: create \(missing) on the device first, or put the file into an existing directory such as \(existing)/",
                deviceError: deviceError)
        case .notADirectory(let folder):
            return CLIError(
                .deviceError, "\(folder) is a file on the device, not a directory: \(remote) cannot be created (\(name))",
                hint: "give a path in an existing directory", deviceError: deviceError)
        case .notInMountPoint:
            return CLIError(
                .deviceError, "\(remote) is not inside a mounted file system (\(name))",
                hint: "a path starts with a mount point, e.g. /lfs1\(remote)", deviceError: deviceError)
        case .noMountPoint(let missing):
            return CLIError(
                .deviceError, "no file system is mounted at \(missing) on the device (\(name))",
                hint: "a path starts with a mount point, e.g. /lfs1/data.bin", deviceError: deviceError)
        }
    }
}
