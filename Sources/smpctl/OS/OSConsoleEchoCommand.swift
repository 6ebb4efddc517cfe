import ArgumentParser
import SMP

/// `smpctl os console-echo on|off`
struct OSConsoleEchoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "console-echo",
        abstract: "Turn the device console's echo on or off (Mynewt; Zephyr answers 'not supported').")

    enum State: String, ExpressibleByArgument, CaseIterable {
        case on, off
    }

    @OptionGroup var global: GlobalOptions

    @Argument(help: "on or off")
    var state: State

    func run() async throws {
        try await global.withClient { client, output in
            try await client.send(OSConsoleEcho(enabled: state == .on))
            output.emit(.object([("consoleEcho", .bool(state == .on))]), human: "console echo \(state.rawValue)")
        }
    }
}
