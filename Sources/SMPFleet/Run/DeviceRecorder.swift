import SMP
import Synchronization

/// What one device's operation reports while it runs: its phases (timed), upload progress, the
/// image lists before and after, retries and notes. Each call is forwarded to the run's events
/// at once (progress at most about ten times a second), and the runner makes the device's
/// ``DeviceRecord`` from what was recorded. Thread-safe and cheap to call often.
public final class DeviceRecorder: Sendable {
    /// Progress events closer together than this are dropped (the last one of an upload is not).
    static let progressInterval: Duration = .milliseconds(100)

    /// The device's place in the run's target list.
    public let index: Int

    private struct State {
        var phases: [PhaseRecord] = []
        var current: (name: String, start: ContinuousClock.Instant)?
        var before: [ImageSlotState]?
        var after: [ImageSlotState]?
        var retries = 0
        var notes: [String] = []
        var lastProgress: ContinuousClock.Instant?
    }

    private let state = Mutex(State())
    private let events: @Sendable (FleetEvent) -> Void

    /// Creates a recorder for the device at `index`; ``FleetRun`` makes one per device, and a
    /// program that runs an operation on one device alone may make its own.
    public init(index: Int = 0, events: @escaping @Sendable (FleetEvent) -> Void = { _ in }) {
        self.index = index
        self.events = events
    }

    /// Ends the current phase (recording its duration) and starts the phase `name`.
    public func phase(_ name: String) {
        let now = ContinuousClock.now
        state.withLock { state in
            Self.end(&state, at: now)
            state.current = (name, now)
            state.lastProgress = nil
        }
        events(.phase(index: index, name: name))
    }

    /// Reports an upload's progress: `sent` of `total` bytes, at `bytesPerSecond` when known.
    /// Calls closer together than a tenth of a second are not forwarded, except the one that
    /// completes the upload.
    public func progress(sent: Int, total: Int, bytesPerSecond: Double?) {
        let now = ContinuousClock.now
        let forward = state.withLock { state -> Bool in
            if sent < total, let last = state.lastProgress, now - last < Self.progressInterval { return false }
            state.lastProgress = now
            return true
        }
        if forward { events(.progress(index: index, sent: sent, total: total, bytesPerSecond: bytesPerSecond)) }
    }

    /// Records the image list read before the operation.
    public func before(_ images: [ImageSlotState]) {
        state.withLock { $0.before = images }
    }

    /// Records the image list read after the operation.
    public func after(_ images: [ImageSlotState]) {
        state.withLock { $0.after = images }
    }

    /// Adds `count` retries (e.g. the retransmissions of a client the operation opened itself;
    /// the runner adds those of the client it opened).
    public func retries(_ count: Int) {
        state.withLock { $0.retries += count }
    }

    /// Records a note (the record joins several with `; `) and forwards it.
    public func note(_ text: String) {
        state.withLock { $0.notes.append(text) }
        events(.note(index: index, text))
    }

    /// Ends the current phase without starting another (time outside any phase is only in the total).
    func endPhase() {
        let now = ContinuousClock.now
        state.withLock { Self.end(&$0, at: now) }
    }

    /// The record of what was reported, the current phase ended.
    func record(target: DeviceTarget, outcome: DeviceOutcome, seconds: Double, failure: DeviceFailure?) -> DeviceRecord {
        let now = ContinuousClock.now
        return state.withLock { state in
            Self.end(&state, at: now)
            return DeviceRecord(
                index: index, target: target, outcome: outcome, before: state.before, after: state.after, phases: state.phases,
                retries: state.retries, seconds: seconds, failure: failure,
                note: state.notes.isEmpty ? nil : state.notes.joined(separator: "; "))
        }
    }

    private static func end(_ state: inout State, at now: ContinuousClock.Instant) {
        guard let current = state.current else { return }
        state.phases.append(PhaseRecord(name: current.name, seconds: (now - current.start).seconds))
        state.current = nil
    }
}
