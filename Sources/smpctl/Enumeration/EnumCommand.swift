import ArgumentParser
import SMP

/// `smpctl enum …`: the enumeration group (10, Zephyr ≥ 3.5).
struct EnumCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enum",
        abstract: "Enumeration group: count, list and describe the management groups the device has.",
        discussion: "`smpctl groups` gives the same answer with what smpctl can do with each group, and also works on devices without enumeration.",
        subcommands: [EnumCountCommand.self, EnumListCommand.self, EnumSingleCommand.self, EnumDetailsCommand.self]
    )
}

/// `smpctl enum count`
struct EnumCountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "count", abstract: "How many groups the device has.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await global.withClient { client, output in
            let count = try await client.send(EnumerationCount())
            output.emit(.object([("count", .uint(count))]), human: String(count))
        }
    }
}

/// `smpctl enum list`
struct EnumListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "The IDs of the device's groups.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await global.withClient { client, output in
            let groups = try await client.send(EnumerationList())
            var table = Table(["GROUP", "NAME"], alignments: [.right, .left])
            for group in groups { table.add([String(group.rawValue), group.name ?? "-"]) }
            output.emit(
                .object([("groups", .array(groups.map { .uint(UInt64($0.rawValue)) }))]),
                human: groups.isEmpty ? "no groups" : table.rendered)
        }
    }
}

/// `smpctl enum single [INDEX]`
struct EnumSingleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "single", abstract: "The group at one index of the device's list (from 0); the last one is marked.")

    @Argument(help: "The index, from 0.")
    var index: UInt64 = 0

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await global.withClient { client, output in
            let entry = try await client.send(EnumerationSingle(index: index))
            output.emit(
                .object([("index", .uint(index)), ("group", .uint(UInt64(entry.group.rawValue))), ("end", .bool(entry.isLast))]),
                human: "\(entry.group)" + (entry.isLast ? " (the last group)" : ""))
        }
    }
}

/// `smpctl enum details [GROUP...]`
struct EnumDetailsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "details", abstract: "Name and handler count of the device's groups (all, or those given).")

    @Argument(help: ArgumentHelp("Groups to describe, by number or name (os, image, stat…); default all.", valueName: "group"))
    var groups: [String] = []

    @OptionGroup var global: GlobalOptions

    func validate() throws { _ = try chosenGroups() }

    private func chosenGroups() throws -> [SMPGroup]? {
        if groups.isEmpty { return nil }
        return try groups.map { text in
            guard let group = SMPGroup(name: text == "stat" ? "statistics" : text) else {
                throw ValidationError("unknown group \"\(text)\": give a number or one of "
                    + SMPGroup.known.compactMap(\.name).joined(separator: ", "))
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
