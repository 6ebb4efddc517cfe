import ArgumentParser
import SMP

/// `smpctl zephyr erase-storage [--yes]`
struct ZephyrEraseStorageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "erase-storage",
        abstract: "Erase the device's storage partition (saved settings, NVS, littlefs data); asks first.",
        discussion: """
            On a terminal it asks for confirmation (y/N). Without a terminal (scripts, pipes) it \
            refuses unless --yes is given. The settings the running firmware already loaded stay \
            in its RAM until it resets.
            """)

    @OptionGroup var global: GlobalOptions

    @OptionGroup var confirmation: ConfirmationOptions

    func run() async throws {
        try global.preflight {
            try confirmation.confirm(
                "Erase the device's storage partition (all saved settings and data)?", action: "erase the storage partition")
        }
        try await global.withClient { client, output in
            try await WaitSpinner.around("erasing the storage partition", json: output.json) { try await client.send(ZephyrBasicEraseStorage()) }
            output.emit(.object([("erased", .bool(true))]), human: "erased the storage partition")
        }
    }
}
