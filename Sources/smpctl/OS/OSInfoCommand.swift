import ArgumentParser
import JSON
import SMP

/// `smpctl os info [--format FMT]`
struct OSInfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show OS and application information, like uname.",
        discussion: "Format characters: "
            + OSApplicationInfo.formatCharacters.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
            + ". The device answers in the fixed order s n r v b m p i o.")

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("Which fields to show, as format characters (a: all of them).", valueName: "format"))
    var format: String = "a"

    func run() async throws {
        try await global.withClient { client, output in
            let text = try await client.send(OSApplicationInfo(format: format))
            // A device of a many-device run keeps the whole document for the report, as --json prints
            // it; one device's text records nothing.
            guard output.json || output.device != nil else { return output.emit(.null, human: text) }
            let fields = try await Self.fields(of: format, client: client)
            output.emit(.object([("format", .string(format)), ("output", .string(text)), ("fields", .object(fields))]), human: text)
        }
    }

    /// JSON names of the standard format characters, in the order the device answers them.
    static let fieldNames: [(Character, String)] = [
        ("s", "kernelName"), ("n", "nodeName"), ("r", "kernelRelease"), ("v", "kernelVersion"), ("b", "buildDateTime"),
        ("m", "machine"), ("p", "processor"), ("i", "hardwarePlatform"), ("o", "operatingSystem"),
    ]

    /// Each standard field `format` asks for, asked alone: the device joins fields with spaces
    /// that the values hold too (a build date), so the joined answer cannot be split. A field the
    /// device refuses alone (not built in) is null.
    static func fields(of format: String, client: SMPClient) async throws -> [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = []
        for (character, name) in fieldNames where format.contains("a") || format.contains(character) {
            let value: JSONValue
            do {
                value = .string(try await client.send(OSApplicationInfo(format: String(character))))
            } catch {
                guard case .device = error else { throw error }
                value = .null
            }
            fields.append((name, value))
        }
        return fields
    }
}
