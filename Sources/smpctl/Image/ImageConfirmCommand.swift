import ArgumentParser
import SMP

/// `smpctl image confirm [IMAGE]`
struct ImageConfirmCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "confirm",
        abstract: "Confirm the running image, or make the named image permanent at the next reset.",
        discussion: """
            Without an image it confirms the running one. Name an image as `image list` shows it: \
            `slot:1` (or --slot 1), its version (1.2.3), or its hash or any unique prefix of it.
            """)

    @OptionGroup var global: GlobalOptions

    @OptionGroup var image: ImageSelectorOptions

    func run() async throws {
        let target = try image.target(global)
        try await global.withClient { client, output in
            let hash = try await target?.hash(using: client)
            let (json, human) = try await client.send(ImageConfirm(hash: hash)).rendered(fullHashes: global.link.verbose > 0)
            output.emit(json, human: human)
        }
    }
}
