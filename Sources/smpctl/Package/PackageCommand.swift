import ArgumentParser

/// `smpctl package`: inspect firmware update files without a device.
struct PackageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "package",
        abstract: "Inspect firmware update files: MCUboot images, dfu_application.zip, SUIT envelopes and packages.",
        subcommands: [PackageInfoCommand.self]
    )
}
