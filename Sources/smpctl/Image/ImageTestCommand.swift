import ArgumentParser
import SMP

/// `smpctl image test IMAGE`
struct ImageTestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Mark an image to be tested at the next reset (it reverts unless confirmed after boot).",
        discussion: """
            Name the image as `image list` shows it: `slot:1` (or --slot 1), its version (1.2.3), \
            or its hash or any unique prefix of it (the 8 hex digits the list prints).
            """)

    @OptionGroup var global: GlobalOptions

    @OptionGroup var image: ImageSelectorOptions

    func run() async throws {
        let target = try image.requiredTarget(global, what: "the image to test")
        try await global.withClient { client, output in
            let hash = try await target.hash(using: client)
            let (json, human) = try await client.send(ImageTest(hash: hash)).rendered(fullHashes: global.link.verbose > 0)
            output.emit(json, human: human)
        }
    }
}
