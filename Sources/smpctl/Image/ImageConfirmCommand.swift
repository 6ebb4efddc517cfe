import ArgumentParser
import SMP

/// `smpctl image confirm [HASH]`
struct ImageConfirmCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "confirm",
        abstract: "Confirm the running image, or make the image with this hash permanent at the next reset.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The image's hash (64 hex digits); omitted: the running image.", valueName: "hash"))
    var hash: String?

    func run() async throws {
        let bytes = try hash.map { try parseImageHash($0, output: global.output) }
        try await global.withClient { client, output in
            let (json, human) = try await client.send(ImageConfirm(hash: bytes)).rendered(fullHashes: global.link.verbose > 0)
            output.emit(json, human: human)
        }
    }
}
