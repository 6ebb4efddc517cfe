import ArgumentParser
import SMP

/// `smpctl fs close`
struct FSCloseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "close", abstract: "Close the file the device holds open for an upload or download.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await global.withClient { client, output in
            try await client.send(FileClose())
            output.emit(.object([("closed", .bool(true))]), human: "closed")
        }
    }
}
