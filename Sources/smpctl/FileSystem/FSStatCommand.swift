import ArgumentParser
import SMP

/// `smpctl fs stat REMOTE`
struct FSStatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stat", abstract: "Print the size of a file on the device.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: FSRemotePath.help)
    var remote: String

    func validate() throws { try FSRemotePath.validate(remote) }

    func run() async throws {
        try await global.withClient { client, output in
            let size = try await client.send(FileStatus(name: remote))
            output.emit(.object([("name", .string(remote)), ("size", .uint(size))]), human: "\(remote): \(size) bytes")
        }
    }
}
