import ArgumentParser

/// `smpctl suit …`: the SUIT group (66) of nRF Connect SDK devices (nRF54H20).
struct SUITCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suit",
        abstract: "SUIT group (nRF Connect SDK): manifests, envelope/cache uploads, resource requests, cleanup.",
        discussion: "To install a SUIT envelope or dfu_suit.zip in one command, use `smpctl upgrade FILE`.",
        subcommands: [
            SUITManifestsCommand.self, SUITStateCommand.self, SUITUploadCommand.self, SUITPollCommand.self,
            SUITCacheUploadCommand.self, SUITCleanupCommand.self,
        ]
    )
}
