import JSON
import SMP
import SMPFleet

/// The report of a many-device run as JSON (docs/many-devices.md, "The report"): the `--report`
/// file and the last line of `--json`.
extension FleetReport {
    /// The report document; `command` is the subcommand (`upgrade`, `os info`), `file` the firmware,
    /// `output` the documents the command printed for a device (its results).
    func json(command: String, file: String?, output: (DeviceTarget) -> [JSONValue]) -> JSONValue {
        .object([
            ("command", .string(command)), ("file", file.map(JSONValue.string) ?? .null),
            ("startedAt", .string(SMPDateTime(secondsSince1970: startedAt).description)),
            ("seconds", .seconds(seconds)), ("jobs", .int(Int64(jobs))),
            ("summary", summaryJSON), ("devices", .array(devices.map { $0.json(output: output($0.target)) })),
        ])
    }

    /// How many devices ended each way.
    var summaryJSON: JSONValue {
        .object([("devices", .int(Int64(devices.count)))] + DeviceOutcome.reportOrder.map { ($0.jsonKey, .int(Int64(counts[$0] ?? 0))) })
    }
}

extension DeviceOutcome {
    /// The outcomes in the order summaries list them.
    static let reportOrder: [DeviceOutcome] = [.succeeded, .skipped, .failed, .interrupted, .notStarted]

    /// The outcome's key in a summary: `succeeded`, `notStarted`…
    var jsonKey: String { self == .notStarted ? "notStarted" : rawValue }
}

extension DeviceRecord {
    /// One device's entry in the report, with the documents the command printed for it.
    func json(output: [JSONValue]) -> JSONValue {
        .object([
            ("index", .int(Int64(index + 1))), ("name", .string(target.name)),
            ("connection", .string(target.connection.description)), ("transport", .string(target.connection.transport.rawValue)),
            ("identity", target.identity.json), ("status", .string(outcome.rawValue)), ("note", note.map(JSONValue.string) ?? .null),
            ("before", before.map { .array($0.map(\.json)) } ?? .null), ("after", after.map { .array($0.map(\.json)) } ?? .null),
            ("phases", .array(phases.map { .object([("name", .string($0.name)), ("seconds", .seconds($0.seconds))]) })),
            ("seconds", .seconds(seconds)), ("retries", .int(Int64(retries))), ("error", failure?.json ?? .null),
            ("output", .array(output)),
        ])
    }
}

extension DeviceIdentity {
    var json: JSONValue {
        .object([
            ("serialNumber", serialNumber.map(JSONValue.string) ?? .null), ("usbPath", usbPath.map(JSONValue.string) ?? .null),
            ("address", address.map(JSONValue.string) ?? .null),
        ])
    }
}

extension DeviceFailure {
    var json: JSONValue {
        .object([("code", .int(Int64(code))), ("name", .string(name)), ("message", .string(message)), ("hint", hint.map(JSONValue.string) ?? .null)])
    }
}
