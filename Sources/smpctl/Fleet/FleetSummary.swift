import SMPFleet

/// The end of a many-device run in text: a table of every device (result, time, retries, and the
/// versions before and after, or the error), a line of counts, each failure's error and hint, and
/// the command that continues the run; and the run's exit status.
struct FleetSummary {
    let report: FleetReport
    let command: String
    let file: String?

    /// The table, one row per device in the order given.
    var table: String {
        let upgrade = report.devices.contains { $0.before != nil || $0.after != nil }
        var table = Table(
            ["DEVICE", "RESULT", "TIME", "RETRIES"] + (upgrade ? ["BEFORE", "AFTER"] : []) + ["DETAIL"],
            alignments: [.left, .left, .right, .right] + (upgrade ? [.left, .left] : []) + [.left])
        for record in report.devices {
            let detail = record.failure?.summary ?? record.note ?? ""
            let versions = upgrade
                ? [DeviceRecord.running(record.before, \.version).nonEmpty, DeviceRecord.running(record.after, \.version).nonEmpty]
                : []
            table.add(
                ([record.target.name, record.outcome.rawValue, TransferProgressRenderer.seconds(record.seconds), String(record.retries)]
                    + versions + [detail]).map(TerminalText.visibleLine))
        }
        return table.rendered
    }

    /// `12 devices in 4.20s: 10 succeeded, 1 skipped, 1 failed`.
    var countsLine: String {
        let counts = DeviceOutcome.reportOrder.compactMap { outcome in
            report.counts[outcome].flatMap { $0 > 0 ? "\($0) \(outcome.rawValue)" : nil }
        }
        let devices = report.devices.count == 1 ? "1 device" : "\(report.devices.count) devices"
        return "\(devices) in \(TransferProgressRenderer.seconds(report.seconds)): " + counts.joined(separator: ", ")
    }

    /// The run's exit status: nil (0) when every device succeeded or was skipped; 130 when it was
    /// interrupted; the failure's own status when every device failed alike; else 3 (some failed).
    var exitStatus: Int32? {
        let failed = report.devices.filter { $0.outcome == .failed }
        if report.devices.contains(where: { $0.outcome == .interrupted || $0.outcome == .notStarted }) {
            return ExitStatus.interrupted.rawValue
        }
        guard let first = failed.first?.failure else { return nil }
        if failed.count == report.devices.count, failed.allSatisfy({ $0.failure?.code == first.code }) { return first.code }
        return ExitStatus.partialFailure.rawValue
    }

    /// Prints the table and counts on standard output, the failures on standard error (each
    /// message once, however many devices failed alike, and each hint once after the failures it
    /// applies to), and `rerun` when some devices are left to do.
    func print(rerun: String) {
        Output.write(table + "\n" + countsLine + "\n", to: .standardOutput)
        for line in failureLines { Output.status(line) }
        if exitStatus != nil {
            let skipping = command == "upgrade" ? " (devices already running the new image are skipped)" : ""
            Output.status("next: \(Self.rerunAdvice) to retry the devices left\(skipping): \(rerun)")
        }
    }
}

extension FleetSummary {
    /// How the `next:` line begins (and a hint it makes needless).
    static let rerunAdvice = "run the same command again"

    /// How many device names an `error:` line lists before it counts the others.
    static let namesShown = 3

    /// `error: bay-1, bay-2: MESSAGE` for each message (the devices that failed with it, named
    /// unless the message names its device itself), grouped by hint, each group followed by its
    /// `hint:` line. A hint whose command names the device is said once for the group, followed by
    /// each device's command (up to ``namesShown`` of them).
    var failureLines: [String] {
        let failed = report.devices.compactMap { record in
            record.failure.map { (target: record.target, failure: $0, hint: $0.hint.map { CLIError.unaddressed($0, from: record.target) }) }
        }
        var hints: [String?] = []
        for device in failed where !hints.contains(device.hint) { hints.append(device.hint) }
        var lines: [String] = []
        for hint in hints {
            let group = failed.filter { $0.hint == hint }
            var messages: [(message: String, names: [String])] = []
            for (target, failure, _) in group {
                let names = failure.message.hasPrefix(target.name) ? [] : [target.name]
                if let index = messages.firstIndex(where: { $0.message == failure.message }) {
                    messages[index].names += names
                } else {
                    messages.append((failure.message, names))
                }
            }
            for (message, names) in messages {
                lines.append("error: " + (names.isEmpty ? "" : Self.listing(names) + ": ") + message)
            }
            // The `next:` line says to run the command again, with the command: a hint that says only that is left out.
            guard let hint, !(exitStatus != nil && hint.hasPrefix(Self.rerunAdvice)) else { continue }
            let addressed = group.compactMap(\.failure.hint).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            guard addressed.count > 1 else {
                lines.append(Self.hintLine(addressed.first ?? hint))
                continue
            }
            lines.append(Self.hintLine(hint))
            for (target, failure, _) in group.prefix(Self.namesShown) {
                let commands = CLIError.deviceCommands(in: failure.hint ?? "")
                lines.append("      \(target.name): " + commands.joined(separator: "; "))
            }
            if group.count > Self.namesShown {
                lines.append("      and \(group.count - Self.namesShown) more devices, each with its own -c")
            }
        }
        return lines
    }

    /// `hint: TEXT`, a text of several lines indented under its first.
    private static func hintLine(_ hint: String) -> String {
        "hint: \(hint.split(separator: "\n").joined(separator: "\n      "))"
    }

    /// `a`, `a, b, c`, or `a, b, c and 7 more devices`.
    static func listing(_ names: [String]) -> String {
        let shown = names.prefix(namesShown).joined(separator: ", ")
        return names.count > namesShown ? "\(shown) and \(names.count - namesShown) more devices" : shown
    }
}

extension String {
    /// The string, or `-` when it is empty.
    var nonEmpty: String { isEmpty ? "-" : self }
}
