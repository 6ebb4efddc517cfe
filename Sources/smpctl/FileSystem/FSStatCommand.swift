import ArgumentParser
import SMP

/// `smpctl fs stat REMOTE`
struct FSStatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stat", abstract: "Print the size of a file on the device.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The absolute path on the device.", valueName: "remote"))
    var remote: String

    func run() async throws {
        try await global.withClient { client, output in
            let size = try await client.send(FileStatus(name: remote))
            output.emit(.object([("name", .string(remote)), ("size", .uint(size))]), human: "\(remote): \(size) bytes")
        }
    }
}
