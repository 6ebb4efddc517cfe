import ArgumentParser
import SMP

/// The REMOTE argument of the `fs` commands: a file's absolute path on the device.
enum FSRemotePath {
    /// The argument's help, the same for every `fs` command.
    static let help = ArgumentHelp("The file's absolute path on the device, e.g. /lfs1/data.bin.", valueName: "remote")

    /// Refuses a path the device cannot take (``RemoteFilePath/validate(_:)``) before anything is sent.
    static func validate(_ remote: String) throws {
        do {
            try RemoteFilePath.validate(remote)
        } catch {
            throw ValidationError(error.description)
        }
    }
}
