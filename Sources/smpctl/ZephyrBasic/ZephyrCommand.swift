import ArgumentParser

/// `smpctl zephyr …`: the Zephyr basic group (63).
struct ZephyrCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zephyr", abstract: "Zephyr basic group: erase the storage partition.",
        subcommands: [ZephyrEraseStorageCommand.self])
}
