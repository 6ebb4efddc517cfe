import ArgumentParser
import SMP

/// `smpctl enum single [INDEX]`
struct EnumSingleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "single", abstract: "The group at one index of the device's list (from 0); the last one is marked.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The index, from 0.")
    var index: UInt64 = 0

    func run() async throws {
        try await global.withClient { client, output in
            let entry = try await client.send(EnumerationSingle(index: index))
            output.emit(
                .object([("index", .uint(index)), ("group", .uint(UInt64(entry.group.rawValue))), ("end", .bool(entry.isLast))]),
                human: "\(entry.group)" + (entry.isLast ? " (the last group)" : ""))
        }
    }
}
