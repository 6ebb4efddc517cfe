import Logging
import SMP
import SMPFleet
import SMPKit
import SMPSimulator
import SMPTestSupport
import Synchronization
import XCTest

final class FleetRunTests: XCTestCase {
    private let logger = Logger(label: "test.fleet")

    /// Counts the operations running at once.
    private final class Concurrency: Sendable {
        private let counts = Mutex((now: 0, most: 0))
        func enter() { counts.withLock { $0.now += 1; $0.most = max($0.most, $0.now) } }
        func leave() { counts.withLock { $0.now -= 1 } }
        var most: Int { counts.withLock { $0.most } }
    }

    func testAtMostJobsDevicesRunAtOnceInASlidingWindowAndRecordsKeepTargetOrder() async throws {
        let fleet = try await startFleet(Array(repeating: VirtualDeviceConfiguration(), count: 8))
        let concurrency = Concurrency()
        let log = EventLog()
        let report = await FleetRun(targets: fleet.targets, jobs: 3).run(configuration: SMPClientConfiguration(), logger: logger) { client, target, recorder in
            concurrency.enter()
            defer { concurrency.leave() }
            recorder.phase("echo")
            let echoed = try await client.send(OSEcho(target.name))
            XCTAssertEqual(echoed, target.name)
            // The first device takes longest: with a sliding window the others all pass it.
            try await Task.sleep(for: .milliseconds(target.name == "sim-1" ? 900 : 100))
            return .succeeded
        } failure: { describedFailure($0) } events: { log.record($0) }

        XCTAssertEqual(concurrency.most, 3)
        XCTAssertEqual(report.jobs, 3)
        XCTAssertEqual(report.devices.map(\.target.name), fleet.targets.map(\.name))
        XCTAssertEqual(report.devices.map(\.index), Array(0..<8))
        XCTAssertEqual(report.counts, [.succeeded: 8])
        XCTAssertEqual(log.finishOrder.last, 0, "the long device ends last: \(log.finishOrder)")
        for device in report.devices {
            XCTAssertEqual(device.phases.map(\.name), ["connect", "echo"])
            XCTAssertGreaterThanOrEqual(device.seconds, device.phases.map(\.seconds).reduce(0, +) - 0.001, "a device's time holds its phases")
            XCTAssertNil(device.failure)
        }
        XCTAssertGreaterThanOrEqual(report.seconds, report.devices.map(\.seconds).max() ?? 0, "the run's time holds each device's")
    }

    func testAFailingDeviceGetsItsFailureAndTheOthersCarryOn() async throws {
        let fleet = try await startFleet(Array(repeating: VirtualDeviceConfiguration(), count: 3))
        var targets = fleet.targets
        targets.insert(DeviceTarget(name: "missing", connection: try ConnectionString(parsing: "serial:/dev/ttyNOPE9")), at: 1)
        let report = await FleetRun(targets: targets, jobs: 2).run(configuration: SMPClientConfiguration(), logger: logger) { client, target, _ in
            _ = try await client.send(OSEcho("hello"))
            if target.name == "sim-2" { throw SMPTransportError(.closed, "made to fail") }
            return .succeeded
        } failure: { describedFailure($0) } events: { _ in }

        XCTAssertEqual(report.devices.map(\.outcome), [.succeeded, .failed, .failed, .succeeded])
        XCTAssertEqual(report.counts, [.succeeded: 2, .failed: 2])
        let missing = report.devices[1]
        XCTAssertEqual(missing.phases.map(\.name), ["connect"])
        XCTAssertTrue(missing.failure?.message.contains("no such serial port") == true, "\(String(describing: missing.failure))")
        XCTAssertTrue(report.devices[2].failure?.message.contains("made to fail") == true, "\(String(describing: report.devices[2].failure))")
        XCTAssertNil(report.devices[0].failure)
    }

    func testCancellingEndsRunningDevicesAsInterruptedAndLeavesTheRestNotStarted() async throws {
        // Silent devices and a long timeout: the run must close the clients to end the requests.
        let silent = FaultInjection(drop: 1)
        let fleet = try await startFleet(
            Array(repeating: VirtualDeviceConfiguration(), count: 5), faults: [0: silent, 1: silent, 2: silent, 3: silent, 4: silent],
            options: "?timeout=60&retries=0")
        let log = EventLog()
        let targets = fleet.targets
        let logger = logger
        let run = Task {
            await FleetRun(targets: targets, jobs: 2).run(configuration: SMPClientConfiguration(), logger: logger) { client, _, recorder in
                recorder.phase("echo")
                // An unstructured task is not cancelled with the run: only closing the client ends its wait.
                _ = try await Task { try await client.send(OSEcho("anyone?")) }.value
                return .succeeded
            } failure: { describedFailure($0) } events: { log.record($0) }
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while log.started < 2, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        try await Task.sleep(for: .milliseconds(200))
        run.cancel()
        // A request left waiting would end at its 60 s timeout as a failure, not as interrupted.
        let ended = await outcomeWhileTheClockStands(of: run)
        let report = try XCTUnwrap(ended).get()
        XCTAssertEqual(report.devices.map(\.outcome), [.interrupted, .interrupted, .notStarted, .notStarted, .notStarted])
        XCTAssertEqual(report.devices[0].phases.map(\.name), ["connect", "echo"])
        XCTAssertEqual(report.devices[4].phases, [])
        XCTAssertTrue(report.devices.allSatisfy { $0.failure == nil })
        XCTAssertEqual(Set(log.finishOrder), Set(0..<5), "every device has its finished event")
    }

    func testRetriesAddTheClientsRetransmissionsToWhatTheOperationReports() async throws {
        // The connection's options override the configuration: a short timeout, many retries.
        let fleet = try await startFleet([VirtualDeviceConfiguration()], faults: [0: FaultInjection(drop: 0.4, seed: 17)], options: "?timeout=0.1&retries=10")
        let configuration = SMPClientConfiguration()
        let report = await FleetRun(targets: fleet.targets, jobs: 1).run(configuration: configuration, logger: logger) { client, _, recorder in
            XCTAssertEqual(client.configuration.retries, 10)
            for number in 0..<12 { _ = try await client.send(OSEcho("echo \(number)")) }
            recorder.retries(2)
            return .succeeded
        } failure: { describedFailure($0) } events: { _ in }
        let device = try XCTUnwrap(report.devices.first)
        XCTAssertEqual(device.outcome, .succeeded, "\(String(describing: device.failure))")
        XCTAssertGreaterThan(device.retries, 2, "the client's retransmissions count too")
    }

    func testProgressIsThrottledButTheLastOfAnUploadAlwaysPasses() {
        let log = EventLog()
        let recorder = DeviceRecorder(index: 4, events: log.record)
        recorder.phase("upload")
        for sent in 0..<10_000 { recorder.progress(sent: sent, total: 10_000, bytesPerSecond: nil) }
        recorder.progress(sent: 10_000, total: 10_000, bytesPerSecond: 1_000)
        recorder.note("done")
        let progress = log.all.compactMap { event -> (Int, Int)? in
            if case .progress(let index, let sent, _, _) = event { return (index, sent) }
            return nil
        }
        XCTAssertLessThanOrEqual(progress.count, 4, "a tight loop is not forwarded call by call")
        XCTAssertEqual(progress.first?.1, 0)
        XCTAssertEqual(progress.last?.1, 10_000)
        XCTAssertTrue(progress.allSatisfy { $0.0 == 4 })
        guard case .note(4, "done") = log.all.last else { return XCTFail("\(log.all)") }
    }
}
