import ArgumentParser
import SMP

/// `smpctl enum count`
struct EnumCountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "count", abstract: "How many groups the device has.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await global.withClient { client, output in
            let count = try await client.send(EnumerationCount())
            output.emit(.object([("count", .uint(count))]), human: String(count))
        }
    }
}
