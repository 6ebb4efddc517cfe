import ArgumentParser

/// `smpctl fs …`: the file system group (8).
struct FSCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fs",
        abstract: "File system group: put and get files, status, hash/checksum, supported types, close.",
        discussion: """
            Paths on the device are absolute and start with a mount point, e.g. /lfs1/log.txt. \
            Transfers are windowed and resumable (see docs/file-system.md).
            """,
        subcommands: [
            FSPutCommand.self, FSGetCommand.self, FSStatCommand.self, FSHashCommand.self, FSTypesCommand.self, FSCloseCommand.self,
        ]
    )
}
