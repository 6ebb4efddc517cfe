import ArgumentParser
import JSON
import SMP

/// `smpctl os bootloader [--query Q]`
struct OSBootloaderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bootloader", abstract: "Show the bootloader's name and, for MCUboot, its mode and downgrade rule.")

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("Ask the bootloader a specific query instead (e.g. active_b0_slot).", valueName: "query"))
    var query: String?

    func run() async throws {
        try await global.withClient { client, output in
            if let query {
                let answer = try await client.send(OSBootloaderInfo(query: query))
                let json = JSONValue(.map(answer))
                output.emit(
                    .object([("query", .string(query)), ("answer", json)]),
                    human: keyValueLines(answer.map { ($0.key.stringValue ?? $0.key.diagnosticDescription, $0.value.diagnosticDescription) }))
                return
            }
            let (json, human) = try await Self.describe(client)
            output.emit(json, human: human)
        }
    }

    /// The bootloader's name and, for MCUboot, its mode, as a JSON document and as text.
    static func describe(_ client: SMPClient) async throws -> (JSONValue, String) {
        switch try await client.describeBootloader() {
        case .serialRecovery(let recognition):
            return recoveryDescription(recognition)
        case .named(let name, let mode):
            var lines = [("bootloader", name)]
            var document: [(String, JSONValue)] = [("bootloader", .string(name))]
            if let mode {
                lines += [("mode", "\(mode.mode.name) (\(mode.mode.rawValue)): \(mode.mode.meaning)"),
                          ("downgrade", mode.noDowngrade ? "refused (no-downgrade)" : "allowed")]
                document += [
                    ("mode", .string(mode.mode.name)), ("modeNumber", .int(mode.mode.rawValue)),
                    ("modeMeaning", .string(mode.mode.meaning)), ("noDowngrade", .bool(mode.noDowngrade)),
                ]
            }
            return (.object(document), keyValueLines(lines))
        }
    }

    /// What `describe` says when MCUboot's serial recovery answers (it has no bootloader info).
    private static func recoveryDescription(_ recognition: ServerRecognition) -> (JSONValue, String) {
        let evidence = recognition.evidence.joined(separator: "; ")
        let document = JSONValue.object([
            ("bootloader", .string("MCUboot")), ("serialRecovery", .bool(true)), ("mode", .null), ("evidence", .string(evidence)),
        ])
        let lines = [
            ("bootloader", "MCUboot, in serial recovery (the bootloader itself answers)"),
            ("mode", "not reported (MCUboot's serial recovery has no bootloader info)"),
            ("because", evidence),
        ]
        return (document, keyValueLines(lines))
    }
}
