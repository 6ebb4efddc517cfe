import ArgumentParser
import JSON
import SMP

/// `smpctl os echo TEXT`
struct OSEchoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "echo", abstract: "Send text to the device and print what it sends back (a ping).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The text to echo.")
    var text: String = "hello"

    func run() async throws {
        try await global.withClient { client, output in
            let clock = ContinuousClock()
            let start = clock.now
            let reply = try await client.send(OSEcho(text))
            let elapsed = clock.now - start
            // Checked before printing, so that --json prints only the error document.
            if reply != text {
                throw CLIError(.protocolError, "the device echoed \"\(reply)\" instead of \"\(text)\"")
            }
            output.emit(
                .object([("echo", .string(reply)), ("roundTripMilliseconds", .milliseconds(elapsed))]),
                human: reply)
        }
    }
}
