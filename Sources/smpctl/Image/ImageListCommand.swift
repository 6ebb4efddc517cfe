import ArgumentParser
import SMP

/// `smpctl image list`
struct ImageListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the images in the device's slots with version, hash and flags (-v: full hashes).")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await global.withClient { client, output in
            let (json, human) = try await client.send(ImageState()).rendered(fullHashes: global.link.verbose > 0)
            output.emit(json, human: human)
        }
    }
}
