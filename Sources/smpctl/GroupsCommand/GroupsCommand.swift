import ArgumentParser
import SMP

/// `smpctl groups`: the management groups a device has, and the smpctl command for each.
struct GroupsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "groups",
        abstract: "Name the management groups the device supports and the smpctl command for each.",
        discussion: """
            Asks the enumeration group (Zephyr 3.5 or later). A device without it (rc 8: Mynewt, older Zephyr, \
            MCUboot serial recovery) is probed instead: each known group gets a harmless read, and groups \
            without one (crash, Zephyr basic...) are not probed.
            """)

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await global.withClient { client, output in
            let report = try await Self.survey(client)
            output.emit(report.json, human: report.text)
        }
    }

    /// Enumeration (listed by group ID; devices report them in registration order), or probing
    /// when the device has no enumeration group.
    static func survey(_ client: SMPClient) async throws(SMPError) -> GroupsReport {
        do {
            let details = try await client.send(EnumerationDetails())
            return GroupsReport(
                source: .enumeration,
                groups: details.map { GroupsReport.Entry(group: $0.group, name: $0.name, handlers: $0.handlers) }.sorted { $0.group < $1.group })
        } catch .device(.returnCode(let code, _, _), _) where code == .notSupported {
            var found: [GroupsReport.Entry] = []
            for probe in GroupProbe.requests {
                if try await GroupProbe.isSupported(probe.request, client: client) {
                    found.append(GroupsReport.Entry(group: probe.group, name: nil, handlers: nil))
                }
            }
            let unprobed = SMPGroup.known.filter { group in group != .enumeration && !GroupProbe.requests.contains { $0.group == group } }
            return GroupsReport(source: .probe(unprobed: unprobed), groups: found)
        }
    }
}
