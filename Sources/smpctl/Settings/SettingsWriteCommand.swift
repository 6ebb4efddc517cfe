import ArgumentParser
import SMP

/// `smpctl settings write NAME VALUE --as TYPE`
struct SettingsWriteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "write", abstract: "Set a setting's value (applied by `commit`, kept over a reset by `save`).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The setting's full name, e.g. bt/name.")
    var name: String

    @Argument(help: "The value, written as --as says; put a negative number after -- (... --as i16 -- -2).")
    var value: String

    @Option(name: .customLong("as"), help: ArgumentHelp("How to encode the value: \(SettingsValueType.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "type"))
    var type: SettingsValueType

    func run() async throws {
        let bytes = try global.preflight { () throws -> [UInt8] in
            do {
                return try type.encode(value)
            } catch {
                throw CLIError(.dataError, "\(error)")
            }
        }
        try await global.withClient { client, output in
            try await client.send(SettingsWrite(name, value: bytes))
            output.emit(
                .object([("name", .string(name)), ("hex", .string(Hex.string(bytes))), ("type", .string(type.rawValue))]),
                human: "\(name) = \(value) (\(bytes.count) bytes: \(Hex.string(bytes)))")
        }
    }
}
