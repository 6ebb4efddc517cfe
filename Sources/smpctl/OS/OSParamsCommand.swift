import ArgumentParser
import SMP

/// `smpctl os params`
struct OSParamsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "params", abstract: "Show the device's SMP buffer size and count, which set frame sizes and windows.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await global.withClient { client, output in
            let parameters = try await client.send(OSParameters())
            output.emit(
                .object([("bufSize", .int(Int64(parameters.bufferSize))), ("bufCount", .int(Int64(parameters.bufferCount)))]),
                human: keyValueLines([
                    ("buffer size", "\(parameters.bufferSize) bytes"), ("buffer count", "\(parameters.bufferCount)"),
                    ("requests in flight", "\(parameters.window)"),
                ]))
        }
    }
}
