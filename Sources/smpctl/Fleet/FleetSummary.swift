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
            let detail = record.failure?.message ?? record.note ?? ""
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
        return "\(report.devices.count) devices in \(TransferProgressRenderer.seconds(report.seconds)): " + counts.joined(separator: ", ")
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

    /// Prints the table and counts on standard output, each failure on standard error, and
    /// `rerun` when some devices are left to do.
    func print(rerun: String) {
        Output.write(table + "\n" + countsLine + "\n", to: .standardOutput)
        for record in report.devices {
            guard let failure = record.failure else { continue }
            let named = failure.message.hasPrefix(record.target.name) ? failure.message : "\(record.target.name): \(failure.message)"
            Output.status("error: \(named)")
            if let hint = failure.hint { Output.status("hint: \(hint.split(separator: "\n").joined(separator: "\n      "))") }
        }
        if exitStatus != nil {
            let skipping = command == "upgrade" ? " (devices already running the new image are skipped)" : ""
            Output.status("next: run the same command again to retry the devices left\(skipping): \(rerun)")
        }
    }
}

extension String {
    /// The string, or `-` when it is empty.
    var nonEmpty: String { isEmpty ? "-" : self }
}
