import ArgumentParser

/// `smpctl image …`: the image management group (1).
struct ImageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "image",
        abstract: "Image group: list, test, confirm and erase firmware images, show slots.",
        subcommands: [
            ImageListCommand.self, ImageTestCommand.self, ImageConfirmCommand.self, ImageEraseCommand.self,
            ImageSlotsCommand.self, ImageInfoCommand.self, ImageUploadCommand.self,
        ]
    )
}
