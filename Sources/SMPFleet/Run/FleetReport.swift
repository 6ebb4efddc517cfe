/// The result of a fleet run: one record per target, in target order.
public struct FleetReport: Sendable {
    /// When the run started, in seconds since 1970 (wall clock).
    public var startedAt: Double
    /// How long the run took, in seconds.
    public var seconds: Double
    /// One record per target, in target order.
    public var devices: [DeviceRecord]
    /// How many devices ran at once at most (the `jobs` asked for, at least 1).
    public var jobs: Int

    /// Creates a report.
    public init(startedAt: Double, seconds: Double, devices: [DeviceRecord], jobs: Int) {
        self.startedAt = startedAt
        self.seconds = seconds
        self.devices = devices
        self.jobs = jobs
    }

    /// How many devices ended with each outcome (outcomes that no device had are left out).
    public var counts: [DeviceOutcome: Int] {
        devices.reduce(into: [:]) { counts, device in counts[device.outcome, default: 0] += 1 }
    }
}
