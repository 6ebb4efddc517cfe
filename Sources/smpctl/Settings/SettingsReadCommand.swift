import ArgumentParser
import JSON
import SMP

/// `smpctl settings read NAME [--as TYPE] [--max-size N]`
struct SettingsReadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read",
        abstract: "Print a setting's value (as text when it is printable UTF-8, else hex, unless --as says).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The setting's full name, e.g. bt/name.")
    var name: String

    @Option(name: .customLong("as"), help: ArgumentHelp("How to show the value: \(SettingsValueType.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "type"))
    var type: SettingsValueType?

    @Option(help: ArgumentHelp("The most bytes the device should return.", valueName: "bytes"))
    var maxSize: Int?

    func validate() throws {
        try NumericRange.maxSize.check(maxSize)
    }

    func run() async throws {
        try await global.withClient { client, output in
            let value = try await client.send(SettingsRead(name, maximumSize: maxSize))
            let shown = try Self.render(value.bytes, as: type)
            if let limit = value.deviceMaximumSize, !output.json {
                output.note("note: the device returns at most \(limit) bytes of a setting; the value may be cut")
            }
            output.emit(Self.json(name: name, value), human: shown)
        }
    }

    /// The value as `type` says, or the default display; a width that does not match is a data error.
    static func render(_ bytes: [UInt8], as type: SettingsValueType?) throws -> String {
        guard let type else { return SettingsValueType.display(bytes).text }
        guard let text = type.decode(bytes) else {
            let reason = type.width.map { "\($0) bytes" } ?? "valid UTF-8"
            throw CLIError(
                .dataError, "the value of \(bytes.count) bytes (\(Hex.string(bytes))) cannot be read as \(type): it needs \(reason)",
                hint: "read it with --as hex, or the type it was written with")
        }
        return text
    }

    /// `{"name":…,"hex":…,"size":N,"string":…|null,"integers":{…},"deviceMaxSize":N|null}`: the
    /// integers are the types whose width is the value's size.
    static func json(name: String, _ value: SettingsValue) -> JSONValue {
        let integers = SettingsValueType.integers.compactMap { type in type.decode(value.bytes).map { (type.rawValue, JSONValue.string($0)) } }
        return .object([
            ("name", .string(name)), ("hex", .string(Hex.string(value.bytes))), ("size", .int(Int64(value.bytes.count))),
            ("string", SettingsValueType.printableText(value.bytes).map(JSONValue.string) ?? .null),
            ("integers", .object(integers)),
            ("deviceMaxSize", value.deviceMaximumSize.map { .int(Int64($0)) } ?? .null),
        ])
    }
}
