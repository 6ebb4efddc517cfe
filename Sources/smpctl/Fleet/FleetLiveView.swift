import FoundationEssentials
import SMPFleet

/// The live view of a many-device run at a terminal: a line of counts, then one line per device
/// (name, phase, a bar with percent and speed, or how it ended), fitted to the terminal's width
/// and height. With more devices than rows, running devices come first, then failed ones, then
/// waiting ones, then those done; a last line counts the devices left out.
enum FleetLiveView {
    /// The lines to draw, each at most `width - 1` columns, at most `height - 1` lines.
    static func lines(_ devices: [FleetDeviceState], command: String, elapsed: Double, width: Int, height: Int) -> [String] {
        let limit = max(1, width - 1)
        var counts: [String] = []
        let finished = devices.compactMap(\.record)
        for outcome in DeviceOutcome.reportOrder {
            let count = finished.filter { $0.outcome == outcome }.count
            if count > 0 { counts.append("\(count) \(outcome.rawValue)") }
        }
        let running = devices.filter { $0.started && $0.record == nil }.count
        let waiting = devices.filter { !$0.started && $0.record == nil }.count
        if running > 0 { counts.append("\(running) running") }
        if waiting > 0 { counts.append("\(waiting) waiting") }
        let header = "\(command): \(devices.count) devices, " + counts.joined(separator: ", ") + "  " + TransferProgressRenderer.seconds(elapsed)
        let nameWidth = min(24, devices.map(\.name.count).max() ?? 0)
        let rows = max(1, height - 2)
        let ordered = devices.enumerated().sorted { rank($0.element) < rank($1.element) || (rank($0.element) == rank($1.element) && $0.offset < $1.offset) }
        let shown = ordered.count > rows ? Array(ordered.prefix(rows - 1)) : ordered
        var lines = [ProgressLayout.shortened(header, to: limit)]
        for (_, device) in shown.sorted(by: { $0.offset < $1.offset }) {
            lines.append(ProgressLayout.shortened(TerminalText.visibleLine(line(device, nameWidth: nameWidth, width: limit)), to: limit))
        }
        if shown.count < ordered.count { lines.append(ProgressLayout.shortened("… and \(ordered.count - shown.count) more", to: limit)) }
        return lines
    }

    /// Running first, then failed, waiting and done.
    private static func rank(_ device: FleetDeviceState) -> Int {
        switch (device.started, device.record?.outcome) {
        case (true, nil): return 0
        case (_, .failed?), (_, .interrupted?): return 1
        case (false, nil): return 2
        default: return 3
        }
    }

    /// One device's line.
    static func line(_ device: FleetDeviceState, nameWidth: Int, width: Int) -> String {
        let name = ProgressLayout.shortened(device.name, to: nameWidth).padded(to: nameWidth)
        if let record = device.record { return "\(name)  \(ending(record))" }
        guard device.started else { return "\(name)  waiting" }
        let phase = (device.phase ?? "connect").padded(to: 10)
        guard let percent = device.percent else { return "\(name)  \(phase)" }
        let rate = device.bytesPerSecond.map(TransferProgressRenderer.rate) ?? ""
        let room = width - name.count - phase.count - rate.count - 12
        let barWidth = min(30, max(0, room))
        let filled = barWidth * percent / 100
        let bar = barWidth > 4 ? "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: barWidth - filled) + "] " : ""
        return "\(name)  \(phase) \(bar)\(String(percent).leftPadded(to: 3))%  \(rate)"
    }

    /// How a device ended: `succeeded in 3.20s`, `failed: no response…`.
    static func ending(_ record: DeviceRecord) -> String {
        let time = TransferProgressRenderer.seconds(record.seconds)
        switch record.outcome {
        case .succeeded: return "succeeded in \(time)" + (record.note.map { " (\($0))" } ?? "")
        case .skipped: return "skipped" + (record.note.map { ": \($0)" } ?? "")
        case .failed: return "FAILED after \(time): " + (record.failure?.summary ?? "unknown error")
        case .interrupted: return "interrupted after \(time)"
        case .notStarted: return "not started"
        }
    }
}

extension String {
    /// The string with spaces in front up to `width` characters.
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
