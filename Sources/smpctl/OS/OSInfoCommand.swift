import ArgumentParser
import SMP

/// `smpctl os info [--format FMT]`
struct OSInfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show OS and application information, like uname.",
        discussion: "Format characters: "
            + OSApplicationInfo.formatCharacters.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
            + ". The device answers in the fixed order s n r v b m p i o.")

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("Which fields to show (default: a = all).", valueName: "format"))
    var format: String = "a"

    func run() async throws {
        try await global.withClient { client, output in
            let text = try await client.send(OSApplicationInfo(format: format))
            output.emit(.object([("format", .string(format)), ("output", .string(text))]), human: text)
        }
    }
}
