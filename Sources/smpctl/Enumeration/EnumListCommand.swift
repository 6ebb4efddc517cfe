import ArgumentParser
import SMP

/// `smpctl enum list`
struct EnumListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "The IDs of the device's groups.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await global.withClient { client, output in
            let groups = try await client.send(EnumerationList())
            var table = Table(["GROUP", "NAME"], alignments: [.right, .left])
            for group in groups { table.add([String(group.rawValue), group.displayName ?? "-"]) }
            output.emit(
                .object([("groups", .array(groups.map { .uint(UInt64($0.rawValue)) }))]),
                human: groups.isEmpty ? "no groups" : table.rendered)
        }
    }
}
