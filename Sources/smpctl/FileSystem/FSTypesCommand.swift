import ArgumentParser
import JSON
import SMP

/// `smpctl fs types`
struct FSTypesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "types", abstract: "List the hash and checksum types the device supports.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await global.withClient { client, output in
            let types = try await client.send(FileHashTypes())
            let json = JSONValue.object([("types", .array(types.map { type in
                .object([("name", .string(type.name)), ("format", .string(type.isByteString ? "bytes" : "number")), ("size", .uint(type.size))])
            }))])
            let lines = types.map { "\($0.name)  \($0.size) bytes (\($0.isByteString ? "byte string" : "number"))" }
            output.emit(json, human: lines.joined(separator: "\n"))
        }
    }
}
