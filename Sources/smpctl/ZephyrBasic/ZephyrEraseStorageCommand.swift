import ArgumentParser
import Foundation
import SMP
#if canImport(Glibc)
import Glibc
#endif

/// `smpctl zephyr erase-storage [--yes]`
struct ZephyrEraseStorageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "erase-storage",
        abstract: "Erase the device's storage partition (saved settings, NVS, littlefs data); asks first.",
        discussion: """
            On a terminal it asks for confirmation (y/N). Without a terminal (scripts, pipes) it
            refuses unless --yes is given. The settings the running firmware already loaded stay
            in its RAM until it resets.
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(name: [.customShort("y"), .long], help: "Erase without asking.")
    var yes = false

    func run() async throws {
        if !yes { try global.preflight(Self.confirm) }
        try await global.withClient { client, output in
            try await client.send(ZephyrBasicEraseStorage())
            output.emit(.object([("erased", .bool(true))]), human: "erased the storage partition")
        }
    }

    /// Asks on the terminal; throws unless the answer is yes, or when there is no terminal to ask on.
    private static func confirm() throws {
        guard isatty(STDIN_FILENO) == 1 else {
            throw CLIError(
                .usage, "refusing to erase the storage partition without confirmation: standard input is not a terminal",
                hint: "add --yes to erase without asking")
        }
        FileHandle.standardError.write(Data("Erase the device's storage partition (all saved settings and data)? [y/N] ".utf8))
        let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        guard answer == "y" || answer == "yes" else {
            throw CLIError(.interrupted, "cancelled: the storage partition was not erased")
        }
    }
}
