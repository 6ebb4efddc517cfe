import ArgumentParser
import SMP

/// `smpctl suit poll`: which resource the device asks for.
struct SUITPollCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "poll", abstract: "Ask the device once which resource (file://NAME) it wants, if any.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await global.withClient { client, output in
            guard let request = try await client.send(SUITPoll()) else {
                output.emit(.object([("requested", .bool(false))]), human: "the device asks for no resource")
                return
            }
            output.emit(
                .object([("requested", .bool(true)), ("session", .uint(request.sessionID)), ("resource", .string(request.resourceID))]),
                human: "the device asks for \(request.resourceID) in stream session \(request.sessionID)")
        }
    }
}
