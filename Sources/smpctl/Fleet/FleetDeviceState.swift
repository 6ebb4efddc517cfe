import SMPFleet

/// What the display knows of one device of a many-device run.
struct FleetDeviceState: Sendable {
    /// The device's name.
    var name: String
    /// Whether it started, and its current phase.
    var started = false
    var phase: String?
    /// The current transfer, if any.
    var sent = 0
    var total = 0
    var bytesPerSecond: Double?
    /// How it ended, with its time and the error or note.
    var record: DeviceRecord?

    /// The transfer's percentage, nil when none runs.
    var percent: Int? { total > 0 ? min(100, sent * 100 / total) : nil }

    /// Applies an event about this device.
    mutating func apply(_ event: FleetEvent) {
        switch event {
        case .started: started = true
        case .phase(_, let name):
            phase = name
            (sent, total, bytesPerSecond) = (0, 0, nil)
        case .progress(_, let sent, let total, let rate):
            (self.sent, self.total, bytesPerSecond) = (sent, total, rate)
        case .note: break
        case .finished(let record): self.record = record
        }
    }
}

extension FleetEvent {
    /// The index of the device the event is about.
    var deviceIndex: Int {
        switch self {
        case .started(let index, _), .phase(let index, _), .progress(let index, _, _, _), .note(let index, _): return index
        case .finished(let record): return record.index
        }
    }
}
