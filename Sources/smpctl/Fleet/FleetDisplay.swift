import JSON
import SMPFleet
import Synchronization

/// Shows a many-device run as it goes (docs/many-devices.md, "What you see"): a live view redrawn
/// in place at a terminal (``FleetLiveView``), plain event lines on standard error otherwise, or
/// JSON lines on standard output with `--json`.
///
/// Events arrive from every device's task; the display writes past any device's output capture.
final class FleetDisplay: Sendable {
    /// How the run shows.
    enum Style: Sendable {
        /// The live view on standard error, redrawn ten times a second.
        case live
        /// A line per phase, per quarter of a transfer and per result, on standard error.
        case plain
        /// A JSON line per event on standard output.
        case json
        /// Nothing until the summary (`-q`, `--progress none`).
        case none
    }

    private struct State {
        var devices: [FleetDeviceState]
        var drawnLines = 0
        var ticker: Task<Void, Never>?
        /// The last quarter (plain) or tenth (JSON) of a transfer shown, per device (nil: none yet,
        /// so the first line comes at 25 % or 10 %).
        var shownStep: [Int: Int] = [:]
    }

    private let style: Style
    private let command: String
    private let started = ContinuousClock.now
    private let state: Mutex<State>
    /// The JSON documents a device's command printed, for its `finished` line.
    private let documents: @Sendable (DeviceTarget) -> [JSONValue]

    init(targets: [DeviceTarget], style: Style, command: String, documents: @escaping @Sendable (DeviceTarget) -> [JSONValue]) {
        self.style = style
        self.command = command
        self.documents = documents
        state = Mutex(State(devices: targets.map { FleetDeviceState(name: $0.name) }))
    }

    /// The style for the options of this run.
    static func style(json: Bool) -> Style {
        if json { return .json }
        switch ProgressDisplay.mode {
        case .bar: return .live
        case .plain: return .plain
        case .none: return .none
        }
    }

    /// Starts redrawing the live view.
    func start() {
        guard style == .live else { return }
        let ticker = Task { [weak self] in
            while !Task.isCancelled {
                self?.draw()
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        state.withLock { $0.ticker = ticker }
    }

    /// Draws the final view and stops redrawing.
    func finish() {
        let ticker = state.withLock { state in
            defer { state.ticker = nil }
            return state.ticker
        }
        ticker?.cancel()
        if style == .live { draw() }
    }

    /// Takes one event.
    func show(_ event: FleetEvent) {
        let index = event.deviceIndex
        let (device, line) = state.withLock { state -> (FleetDeviceState?, String?) in
            guard state.devices.indices.contains(index) else { return (nil, nil) }
            state.devices[index].apply(event)
            return (state.devices[index], eventLine(event, device: state.devices[index], shownStep: &state.shownStep[index]))
        }
        guard device != nil, let line else { return }
        (style == .json ? StandardStream.standardOutput : .standardError).write(line)
    }

    /// The plain or JSON line for an event, nil when this style shows none for it.
    private func eventLine(_ event: FleetEvent, device: FleetDeviceState, shownStep: inout Int?) -> String? {
        switch style {
        case .live, .none: return nil
        case .plain: return plainLine(event, device: device, shownStep: &shownStep).map { TerminalText.visible("\(device.name): \($0)") + "\n" }
        case .json: return jsonLine(event, device: device, shownStep: &shownStep)?.documentLine()
        }
    }

    private func plainLine(_ event: FleetEvent, device: FleetDeviceState, shownStep: inout Int?) -> String? {
        switch event {
        case .started: return nil
        case .phase(_, let name):
            shownStep = nil
            return name
        case .progress:
            guard let percent = device.percent, percent / 25 != (shownStep ?? 0) else { return nil }
            shownStep = percent / 25
            return "\(device.phase ?? "transfer") \(percent)% (\(device.sent) of \(device.total) bytes)"
        case .note(_, let text): return "note: \(text)"
        case .finished(let record): return FleetLiveView.ending(record)
        }
    }

    private func jsonLine(_ event: FleetEvent, device: FleetDeviceState, shownStep: inout Int?) -> JSONValue? {
        let index = event.deviceIndex
        var members: [(String, JSONValue)] = [("event", .string("device")), ("device", .string(device.name)), ("index", .int(Int64(index + 1)))]
        switch event {
        case .started(_, let target):
            members += [("status", .string("started")), ("connection", .string(target.connection.description))]
        case .phase(_, let name):
            shownStep = nil
            members += [("status", .string("phase")), ("phase", .string(name))]
        case .progress(_, let sent, let total, let rate):
            guard let percent = device.percent, percent / 10 != (shownStep ?? 0) else { return nil }
            shownStep = percent / 10
            members += [
                ("status", .string("progress")), ("phase", device.phase.map(JSONValue.string) ?? .null), ("sent", .int(Int64(sent))),
                ("total", .int(Int64(total))), ("percent", .int(Int64(percent))), ("bytesPerSecond", rate.map(JSONValue.rate) ?? .null),
            ]
        case .note(_, let text):
            members += [("status", .string("note")), ("message", .string(text))]
        case .finished(let record):
            members += [
                ("status", .string("finished")), ("result", .string(record.outcome.rawValue)), ("seconds", .seconds(record.seconds)),
                ("note", record.note.map(JSONValue.string) ?? .null), ("error", record.failure?.json ?? .null),
                ("output", .array(documents(record.target))),
            ]
        }
        return .object(members)
    }

    /// Redraws the live view over the previous one.
    private func draw() {
        let elapsed = (ContinuousClock.now - started).milliseconds / 1000
        let width = TerminalWidth.columns() ?? TerminalWidth.fallback
        let height = TerminalWidth.rows() ?? 24
        let text = state.withLock { state in
            let lines = FleetLiveView.lines(state.devices, command: command, elapsed: elapsed, width: width, height: height)
            var text = state.drawnLines > 0 ? "\u{1B}[\(state.drawnLines)F" : ""
            for line in lines { text += "\u{1B}[2K" + line + "\n" }
            if lines.count < state.drawnLines { text += "\u{1B}[0J" }
            state.drawnLines = lines.count
            return text
        }
        StandardStream.standardError.write(text)
    }
}
