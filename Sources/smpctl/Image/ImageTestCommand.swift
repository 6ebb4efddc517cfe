import ArgumentParser
import SMP

/// `smpctl image test HASH`
struct ImageTestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Mark an image to be tested at the next reset (it reverts unless confirmed after boot).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The image's hash: 64 hex digits, as `image list -v` shows it.", valueName: "hash"))
    var hash: String

    func run() async throws {
        let bytes = try parseImageHash(hash, output: global.output)
        try await global.withClient { client, output in
            let (json, human) = try await client.send(ImageTest(hash: bytes)).rendered(fullHashes: global.link.verbose > 0)
            output.emit(json, human: human)
        }
    }
}
