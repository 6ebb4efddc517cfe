import FoundationEssentials
import Logging
import SMP
import SMPKit

/// Runs one operation on many devices, at most ``jobs`` at once, and reports what happened to each.
///
/// ```swift
/// let run = FleetRun(targets: targets, jobs: 8)
/// let report = await run.run(configuration: SMPClientConfiguration(), logger: logger) { client, target, recorder in
///     recorder.phase("echo")
///     _ = try await client.send(OSEcho("hello"))
///     return .succeeded
/// } failure: { error in
///     DeviceFailure(code: 1, name: "error", message: "\(error)")
/// } events: { event in
///     print(event)
/// }
/// ```
public struct FleetRun: Sendable {
    /// The devices, in the order the report lists them.
    public var targets: [DeviceTarget]
    /// How many devices run at once at most (at least 1).
    public var jobs: Int
    /// The targets that stand for a selector that matched no device, with the failure each is
    /// recorded with: the run never reaches for them.
    public var unmatched: [DeviceTarget: DeviceFailure]

    /// Creates a run of `targets`, `jobs` at once (less than 1 counts as 1); those in `unmatched`
    /// are recorded as failed with their failure instead of being run.
    public init(targets: [DeviceTarget], jobs: Int, unmatched: [DeviceTarget: DeviceFailure] = [:]) {
        self.targets = targets
        self.jobs = max(1, jobs)
        self.unmatched = unmatched
    }

    /// Runs `operation` on every target, at most ``jobs`` at once (a sliding window: the next
    /// device starts as soon as one ends), each with its own client opened from its connection
    /// (configuration: the given base, overridden by the connection's options) and closed after.
    ///
    /// A thrown error, or a failure to open the connection (phase `connect`), becomes
    /// `failure(error)` for that device alone; the others carry on. Cancelling the calling task
    /// (Ctrl-C) closes the running devices' clients and marks them `interrupted`, and the
    /// devices not yet started `not-started`, then returns. The runner adds each client's
    /// retransmissions to the device's retries and times the whole device. The open is the
    /// phase `connect`; after it, time counts in a phase only when the operation names one
    /// (``DeviceRecorder/phase(_:)``), and always in the device's total.
    ///
    /// - Parameters:
    ///   - configuration: the clients' configuration, before each connection's own options.
    ///   - logger: the clients' logger; each device's has its name as `device` metadata.
    ///   - operation: what to do on one device, with its client; records phases, progress and
    ///     notes through the recorder, and returns ``DeviceOutcome/succeeded`` or
    ///     ``DeviceOutcome/skipped``.
    ///   - failure: turns an error into the device's failure.
    ///   - events: receives every device's events, from any thread; keep it quick.
    /// - Returns: one record per target, in target order. Never throws: the report says it all.
    public func run(
        configuration: SMPClientConfiguration, logger: Logger,
        operation: @escaping @Sendable (SMPClient, DeviceTarget, DeviceRecorder) async throws -> DeviceOutcome,
        failure: @escaping @Sendable (any Error) -> DeviceFailure,
        events: @escaping @Sendable (FleetEvent) -> Void
    ) async -> FleetReport {
        await run(logger: logger, operation: { target, recorder, logger in
            try await Self.withClient(target, configuration: configuration, logger: logger, recorder: recorder) { client in
                try await operation(client, target, recorder)
            }
        }, failure: failure, events: events)
    }

    /// Runs `operation` on every target like
    /// ``run(configuration:logger:operation:failure:events:)``, but opens nothing: the operation
    /// reaches the device itself (a protocol other than SMP, such as Nordic DFU), with the logger
    /// that names the device.
    public func run(
        logger: Logger,
        operation: @escaping @Sendable (DeviceTarget, DeviceRecorder, Logger) async throws -> DeviceOutcome,
        failure: @escaping @Sendable (any Error) -> DeviceFailure,
        events: @escaping @Sendable (FleetEvent) -> Void
    ) async -> FleetReport {
        let startedAt = Date().timeIntervalSince1970
        let start = ContinuousClock.now
        let device = DeviceRun(logger: logger, operation: operation, failure: failure, events: events)
        var records = [DeviceRecord?](repeating: nil, count: targets.count)
        await withTaskGroup(of: DeviceRecord.self) { group in
            var next = 0
            func startNext() {
                let index = next
                let target = targets[index]
                next += 1
                let unmatched = unmatched[target]
                group.addTask { await device.run(index: index, target: target, unmatched: unmatched) }
            }
            while next < targets.count, next < jobs, !Task.isCancelled { startNext() }
            while let record = await group.next() {
                records[record.index] = record
                if next < targets.count, !Task.isCancelled { startNext() }
            }
        }
        let devices = records.enumerated().map { index, record in
            record ?? {
                let unstarted = DeviceRecord(index: index, target: targets[index], outcome: .notStarted)
                events(.finished(unstarted))
                return unstarted
            }()
        }
        return FleetReport(startedAt: startedAt, seconds: (ContinuousClock.now - start).seconds, devices: devices, jobs: jobs)
    }

    /// Opens a client to `target` (phase `connect`), runs `body` with it and closes it, adding
    /// its retransmissions to the device's retries. Cancelling closes the client at once, so that
    /// a cancelled device ends promptly even in the middle of a long wait for an answer.
    public static func withClient(
        _ target: DeviceTarget, configuration: SMPClientConfiguration, logger: Logger, recorder: DeviceRecorder,
        _ body: @Sendable (SMPClient) async throws -> DeviceOutcome
    ) async throws -> DeviceOutcome {
        recorder.phase("connect")
        let client = try await SMPConnection.open(target.connection, configuration: configuration, logger: logger)
        recorder.endPhase()
        do {
            let outcome = try await withTaskCancellationHandler {
                try await body(client)
            } onCancel: {
                Task { await client.close() }
            }
            await finish(client, recorder: recorder)
            return outcome
        } catch {
            await finish(client, recorder: recorder)
            throw error
        }
    }

    private static func finish(_ client: SMPClient, recorder: DeviceRecorder) async {
        recorder.retries(await client.statistics.retransmissions)
        await client.close()
    }
}

/// One device's turn in a ``FleetRun``: operate, record.
private struct DeviceRun: Sendable {
    let logger: Logger
    let operation: @Sendable (DeviceTarget, DeviceRecorder, Logger) async throws -> DeviceOutcome
    let failure: @Sendable (any Error) -> DeviceFailure
    let events: @Sendable (FleetEvent) -> Void

    func run(index: Int, target: DeviceTarget, unmatched: DeviceFailure?) async -> DeviceRecord {
        let start = ContinuousClock.now
        events(.started(index: index, target))
        let recorder = DeviceRecorder(index: index, events: events)
        if let unmatched {
            let record = recorder.record(target: target, outcome: .failed, seconds: 0, failure: unmatched)
            events(.finished(record))
            return record
        }
        var logger = logger
        logger[metadataKey: "device"] = "\(target.name)"
        let outcome: DeviceOutcome
        var deviceFailure: DeviceFailure?
        do {
            outcome = try await operation(target, recorder, logger)
        } catch {
            if Task.isCancelled || error is CancellationError {
                outcome = .interrupted
            } else {
                outcome = .failed
                deviceFailure = failure(error)
            }
        }
        let record = recorder.record(target: target, outcome: outcome, seconds: (ContinuousClock.now - start).seconds, failure: deviceFailure)
        events(.finished(record))
        return record
    }
}
