import JSON
import SMP

/// What `smpctl groups` found.
struct GroupsReport {
    /// How the groups were found.
    enum Source {
        case enumeration
        /// Probing; the known groups that have no harmless command were left out.
        case probe(unprobed: [SMPGroup])
    }

    /// One group the device has.
    struct Entry {
        var group: SMPGroup
        var name: String?
        var handlers: UInt64?

        /// The smpctl command for the group, when smpctl has one (e.g. `smpctl stat`).
        var command: String? { group.commandName.map { "smpctl \($0)" } }
    }

    var source: Source
    var groups: [Entry]

    var text: String {
        var table = Table(["GROUP", "NAME", "HANDLERS", "SMPCTL"], alignments: [.right, .left, .right, .left])
        for entry in groups {
            table.add([
                String(entry.group.rawValue), entry.name ?? entry.group.name ?? "-", entry.handlers.map(String.init) ?? "-",
                entry.command ?? "smpctl raw",
            ])
        }
        var text = groups.isEmpty ? "no groups found" : table.rendered
        switch source {
        case .enumeration:
            text += "\n(\(groups.count) groups, as the device's enumeration group reports)"
        case .probe(let unprobed):
            text += "\n(the device has no enumeration group: probed each known group with a harmless read; "
                + "not probed: \(unprobed.map(\.description).joined(separator: ", ")))"
        }
        return text
    }

    var json: JSONValue {
        var members: [(String, JSONValue)] = []
        switch source {
        case .enumeration:
            members.append(("source", .string("enumeration")))
        case .probe(let unprobed):
            members.append(("source", .string("probe")))
            members.append(("notProbed", .array(unprobed.map { .uint(UInt64($0.rawValue)) })))
        }
        members.append(("groups", .array(groups.map { entry in
            .object([
                ("group", .uint(UInt64(entry.group.rawValue))), ("name", (entry.name ?? entry.group.name).map(JSONValue.string) ?? .null),
                ("handlers", entry.handlers.map(JSONValue.uint) ?? .null), ("command", entry.command.map(JSONValue.string) ?? .null),
            ])
        })))
        return .object(members)
    }
}
