import ArgumentParser
import SMP

/// `smpctl enum …`: the enumeration group (10, Zephyr ≥ 3.5).
struct EnumCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enum",
        abstract: "Enumeration group: count, list and describe the management groups the device has.",
        discussion: "`smpctl groups` gives the same answer with what smpctl can do with each group, and also works on devices without enumeration.",
        subcommands: [EnumCountCommand.self, EnumListCommand.self, EnumSingleCommand.self, EnumDetailsCommand.self]
    )
}
