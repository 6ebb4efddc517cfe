import ArgumentParser
import JSON
import SMP

/// `smpctl os params`
struct OSParamsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "params", abstract: "Show the device's SMP buffer size and count, which set frame sizes and windows.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await global.withClient { client, output in
            let (json, human) = Self.render(try await client.send(OSParameters()))
            output.emit(json, human: human)
        }
    }

    /// The parameters as a JSON document and as text.
    static func render(_ parameters: MCUmgrParameters) -> (JSONValue, String) {
        (
            .object([
                ("bufferSize", .int(Int64(parameters.bufferSize))), ("bufferCount", .int(Int64(parameters.bufferCount))),
                ("requestsInFlight", .int(Int64(parameters.window))),
            ]),
            keyValueLines([
                ("buffer size", "\(parameters.bufferSize) bytes"), ("buffer count", "\(parameters.bufferCount)"),
                ("requests in flight", "\(parameters.window)"),
            ])
        )
    }
}
