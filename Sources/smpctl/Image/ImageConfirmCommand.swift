import ArgumentParser
import SMP

/// `smpctl image confirm [IMAGE] [--yes]`
struct ImageConfirmCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "confirm",
        abstract: "Confirm the running image, or make the named image permanent at the next reset.",
        discussion: """
            Without an image it confirms the running one. Name an image as `image list` shows it: \
            `slot:1` (or --slot 1), its version (1.2.3), or its hash or any unique prefix of it.
            An image that is not running boots at the next reset and stays: it is never tested, and \
            MCUboot cannot revert it. So on a terminal this asks first (y/N); without a terminal \
            (scripts, pipes) it refuses unless --yes is given. Confirming the running image asks nothing.
            """)

    @OptionGroup var global: GlobalOptions

    @OptionGroup var image: ImageSelectorOptions

    @OptionGroup var confirmation: ConfirmationOptions

    func run() async throws {
        let target = try image.target(global)
        try await global.withClient { client, output in
            var hash: [UInt8]?
            if let target, !confirmation.yes {
                let list = try await client.send(ImageState())
                let named = try target.hash(in: list)
                if let held = list.images.first(where: { $0.hash == named }), !held.active, !held.permanent {
                    try confirmation.confirm(
                        "Make \(Self.name(held)) permanent? (\(Self.consequence))", action: "make \(Self.name(held)) permanent",
                        consequence: Self.consequence)
                }
                hash = named
            } else {
                hash = try await target?.hash(using: client)
            }
            let (json, human) = try await client.send(ImageConfirm(hash: hash)).rendered(fullHashes: global.link.verbose > 0)
            output.emit(json, human: human)
        }
    }

    /// What confirming an image that is not running means.
    static let consequence = "it boots at the next reset and stays, with no test run and no revert if it fails"

    /// "version 1.2.0 (image 0, slot 1, hash 5a5a5a5a)".
    private static func name(_ held: ImageSlotState) -> String {
        let hash = held.hash.map { ", hash \(Hex.string($0.prefix(4)))" } ?? ""
        return "version \(held.version) (image \(held.image), slot \(held.slot)\(hash))"
    }
}
