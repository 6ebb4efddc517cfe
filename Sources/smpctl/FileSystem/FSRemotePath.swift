import ArgumentParser

/// The REMOTE argument of the `fs` commands: a file's absolute path on the device.
enum FSRemotePath {
    /// The argument's help, the same for every `fs` command.
    static let help = ArgumentHelp("The file's absolute path on the device, e.g. /lfs1/data.bin.", valueName: "remote")

    /// Refuses a relative path before anything is sent: the device only knows absolute paths
    /// (a relative one would be answered "no file system mounted there").
    static func validate(_ remote: String) throws {
        guard remote.hasPrefix("/") else {
            throw ValidationError("the remote path \"\(remote)\" is not absolute: give the whole path from the mount point, e.g. /lfs1/data.bin")
        }
    }
}
