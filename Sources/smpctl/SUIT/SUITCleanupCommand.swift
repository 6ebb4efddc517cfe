import ArgumentParser
import SMP

/// `smpctl suit cleanup`: erase the DFU partition and the caches.
struct SUITCleanupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cleanup", abstract: "Erase the device's SUIT DFU partition and caches (abandons an update in progress).")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await global.withClient { client, output in
            try await client.send(SUITCleanup())
            output.emit(.object([("cleaned", .bool(true))]), human: "the DFU partition and caches are erased")
        }
    }
}
