import ArgumentParser
import JSON
import SMPFleet
import SMPKit

/// `smpctl targets`: the devices a selector or a targets file stands for; nothing is sent.
struct TargetsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "targets",
        abstract: "Show the devices a selector or a targets file names, without sending anything.",
        discussion: """
            SELECTOR (or -c SELECTOR) is a connection string or a selector that may name \
            many devices: serial:* (every likely SMP serial device), serial:vid=2fe3, \
            serial:serial=E661*, serial:path=/dev/ttyACM*, serial:ID_MODEL=Zephyr*, \
            udp:HOST,HOST:PORT, udp:127.0.0.1:14000-14099, udp:192.0.2.10-20, \
            ble:name=Zephyr-*?scan=SECONDS. FILE has one [LABEL] TARGET per line \
            (- reads standard input); TARGET may also be a profile name.
            Examples: smpctl targets 'serial:vid=2fe3'
                      smpctl targets --targets rack.txt --json
            Exit codes: 64 bad selector, 65 bad targets file or a device named twice, \
            69 nothing matches (docs/many-devices.md).
            """)

    @Argument(help: ArgumentHelp("A connection string or a selector naming devices.", valueName: "selector"))
    var selector: String?

    @Option(
        name: [.customShort("c", allowingJoined: true), .customLong("connection")],
        help: ArgumentHelp("The same as SELECTOR.", valueName: "selector"), completion: .connectionString)
    var connection: String?

    @Option(help: ArgumentHelp("A file of targets, one [LABEL] TARGET per line; - reads standard input; may be given several times.", valueName: "file"))
    var targets: [String] = []

    @OptionGroup var format: JSONOutputOption

    func validate() throws {
        if selector != nil && connection != nil {
            throw ValidationError("give the selector once: as SELECTOR or with -c, not both")
        }
    }

    func run() async throws {
        let output = format.output
        do throws(CLIError) {
            var parsed: TargetSelector?
            if let text = selector ?? connection {
                do { parsed = try TargetSelector(parsing: text) } catch { throw CLIError(targetSelection: error) }
            }
            let found = try await resolveTargets(selector: parsed, targetsFiles: targets, config: ConfigLoader(store: ConfigStore.standard()))
            // Listing is for checking a rack: a selector that matches nothing is the answer, not a device.
            if let missing = found.targets.lazy.compactMap({ found.unmatched[$0] }).first { throw missing }
            let report = TargetsReport(targets: found.targets, holders: await Self.placeHolders(found.targets))
            await LabgridCoordinator.closeAll()
            output.emit(report.json, human: report.text)
        } catch {
            output.report(error)
            throw ExitCode(error.status.rawValue)
        }
    }

    /// Who holds each labgrid place among `targets` (`-` when free), by target name, from each
    /// coordinator's list of places: nothing is acquired.
    private static func placeHolders(_ targets: [DeviceTarget]) async -> [String: String] {
        var holders: [String: String] = [:]
        var lists: [String: [String: String]] = [:]
        for target in targets {
            guard case .labgridPlace(let place) = target.connection.target else { continue }
            let address = LabgridCoordinator.address(option: place.coordinator)
            if lists[address] == nil {
                let places = try? await LabgridCoordinator.shared(address: address).places(matching: "*")
                lists[address] = Dictionary((places ?? []).map { ($0.name, $0.holder ?? "-") }) { first, _ in first }
            }
            holders[target.name] = lists[address]?[place.name] ?? "?"
        }
        return holders
    }
}

/// What `smpctl targets` prints.
struct TargetsReport {
    /// The targets, in order.
    var targets: [DeviceTarget]
    /// Who holds each labgrid place (`HOST/USER`, `-` when free), by target name: a column of its
    /// own in the table when there are places.
    var holders: [String: String] = [:]

    /// `{"targets":[{"name","transport","connection","serialNumber","usbPath","address"}…]}`.
    var json: JSONValue {
        .object([
            ("targets", .array(targets.map { target in
                .object([
                    ("name", .string(target.name)), ("transport", .string(target.connection.transport.rawValue)),
                    ("connection", .string(target.connection.description)),
                    ("serialNumber", target.identity.serialNumber.map(JSONValue.string) ?? .null),
                    ("usbPath", target.identity.usbPath.map(JSONValue.string) ?? .null),
                    ("address", target.identity.address.map(JSONValue.string) ?? .null),
                ])
            })),
        ])
    }

    /// A table, one row per target; `-` where a field is unknown.
    var text: String {
        let places = !holders.isEmpty
        var table = Table(["NAME", "TRANSPORT", "CONNECTION", "SERIAL NUMBER", "USB PATH", "ADDRESS"] + (places ? ["HELD BY"] : []))
        for target in targets {
            table.add([
                target.name, target.connection.transport.rawValue, target.connection.description, target.identity.serialNumber ?? "-",
                target.identity.usbPath ?? "-", target.identity.address ?? "-",
            ] + (places ? [holders[target.name] ?? "-"] : []))
        }
        return table.rendered
    }
}
