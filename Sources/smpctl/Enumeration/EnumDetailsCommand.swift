import ArgumentParser
import JSON
import SMP

/// `smpctl enum details [GROUP...]`
struct EnumDetailsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "details", abstract: "Name and handler count of the device's groups (all, or those given).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Groups to describe, by number or name (os, image, stat...); default all.", valueName: "group"))
    var groups: [String] = []

    func validate() throws { _ = try chosenGroups() }

    private func chosenGroups() throws -> [SMPGroup]? {
        if groups.isEmpty { return nil }
        return try groups.map { text in
            guard let group = SMPGroup(commandLine: text) else {
                throw ValidationError("unknown group \"\(text)\": give a number or one of "
                    + SMPGroup.known.compactMap(\.displayName).joined(separator: ", "))
            }
            return group
        }
    }

    func run() async throws {
        let chosen = try chosenGroups()
        try await global.withClient { client, output in
            let details = try await client.send(EnumerationDetails(groups: chosen))
            var table = Table(["GROUP", "NAME", "HANDLERS"], alignments: [.right, .left, .right])
            for entry in details {
                table.add([String(entry.group.rawValue), entry.name ?? "-", entry.handlers.map(String.init) ?? "-"])
            }
            output.emit(
                .object([("groups", .array(details.map(\.json)))]), human: details.isEmpty ? "no groups" : table.rendered)
        }
    }
}

extension EnumerationDetails.Details {
    /// `{"group", "name", "handlers"}` (null when not reported), plus any extra fields the device added.
    var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("group", .uint(UInt64(group.rawValue))), ("name", name.map(JSONValue.string) ?? .null),
            ("handlers", handlers.map(JSONValue.uint) ?? .null),
        ]
        if !extra.isEmpty { members.append(("extra", JSONValue(.map(extra)))) }
        return .object(members)
    }
}
