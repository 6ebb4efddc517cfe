import ArgumentParser
import SMP

/// `smpctl os reset [--force] [--boot-mode normal|bootloader|N]`
struct OSResetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset", abstract: "Reset the device (sent once, never retried).")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Ask the application to reset even if a reset hook would refuse.")
    var force = false

    @Option(help: ArgumentHelp("Boot mode for the next boot: normal, bootloader, or a number (Zephyr 4.2 or later).", valueName: "mode"))
    var bootMode: String?

    func run() async throws {
        let mode: UInt8?
        do {
            mode = try bootMode.map(parseBootMode)
        } catch {
            // Reported like every other failure: exit 65, and the error document with --json.
            let failure = CLIError(error)
            global.output.report(failure)
            throw ExitCode(failure.status.rawValue)
        }
        try await global.withClient { client, output in
            try await client.send(OSReset(force: force, bootMode: mode))
            output.emit(
                .object([("reset", .bool(true)), ("force", .bool(force)), ("bootMode", mode.map { .string(Self.bootModeName($0)) } ?? .null)]),
                human: "reset requested; the device restarts in a moment")
        }
    }

    /// The boot mode as `--boot-mode` takes it: `normal`, `bootloader`, or the number in decimal.
    static func bootModeName(_ mode: UInt8) -> String {
        switch mode {
        case 0: return "normal"
        case OSReset.bootloaderBootMode: return "bootloader"
        default: return String(mode)
        }
    }

    private func parseBootMode(_ text: String) throws -> UInt8 {
        switch text.lowercased() {
        case "normal": return 0
        case "bootloader": return OSReset.bootloaderBootMode
        default:
            guard let value = UInt8(text) else {
                throw CLIError(.dataError, "--boot-mode \(text) is not normal, bootloader or a number from 0 to 255")
            }
            return value
        }
    }
}
