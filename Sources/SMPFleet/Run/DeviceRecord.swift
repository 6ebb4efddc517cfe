import SMP

/// What happened to one device in a fleet run: the report's line for it.
public struct DeviceRecord: Sendable {
    /// The device's place in the run's target list, from 0.
    public var index: Int
    /// The device.
    public var target: DeviceTarget
    /// How its part ended.
    public var outcome: DeviceOutcome
    /// The image list before the operation, when it read one.
    public var before: [ImageSlotState]?
    /// The image list after the operation, when it read one.
    public var after: [ImageSlotState]?
    /// The phases in the order they ran, `connect` first.
    public var phases: [PhaseRecord]
    /// Requests sent again (the clients' retransmissions, and what the operation added).
    public var retries: Int
    /// How long the device took in all, in seconds (0 when it did not start).
    public var seconds: Double
    /// Why it failed, for ``DeviceOutcome/failed``.
    public var failure: DeviceFailure?
    /// What the operation noted, e.g. `already running 1.2.0` (several notes are joined by `; `).
    public var note: String?

    /// Creates a record.
    public init(
        index: Int, target: DeviceTarget, outcome: DeviceOutcome, before: [ImageSlotState]? = nil, after: [ImageSlotState]? = nil,
        phases: [PhaseRecord] = [], retries: Int = 0, seconds: Double = 0, failure: DeviceFailure? = nil, note: String? = nil
    ) {
        self.index = index
        self.target = target
        self.outcome = outcome
        self.before = before
        self.after = after
        self.phases = phases
        self.retries = retries
        self.seconds = seconds
        self.failure = failure
        self.note = note
    }
}
