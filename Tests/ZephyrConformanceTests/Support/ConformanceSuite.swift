import Foundation
import SMPTestSupport
import XCTest

/// Which device a test class runs the scenarios against, and which areas it covers.
struct ConformanceSuite: Sendable {
    /// The fixture's board and configuration.
    var target: String
    var config: String
    /// How the fixture is reached.
    var route: FixtureRoute = .direct
    /// Whether the scenarios run against our virtual device configured like the fixture.
    var virtual = false
    /// The areas the suite covers, run in this order.
    var areas: [ConformanceArea]

    /// Runs every area in turn (see ``run(_:in:file:line:)``); an area that fails is reported
    /// and the next one still runs.
    func runAll(in test: XCTestCase, file: StaticString = #filePath, line: UInt = #line) async {
        for area in areas {
            do {
                try await run(area, in: test, file: file, line: line)
            } catch {
                XCTFail("\(target)/\(config), area \(area): \(error)", file: file, line: line)
            }
        }
    }

    /// Starts the device, runs the area's scenarios on it one after the other, and stops it
    /// (also when the test fails). A failing step prints its run and the device's logs.
    func run(_ area: ConformanceArea, in test: XCTestCase, file: StaticString = #filePath, line: UInt = #line) async throws {
        let folder = try ZephyrFixtureFolder.require()
        let fixture = try folder.fixture(target: target, config: config)
        guard fixture.offers(area.group) else {
            XCTFail("\(fixture.name) does not offer the \(area.group) group (firmware: \(fixture.firmwareGroups))", file: file, line: line)
            return
        }
        let scenarios = ConformanceScenarios.of(area, for: fixture, onVirtualDevice: virtual)
        guard !scenarios.isEmpty else {
            XCTFail("no \(area) scenario applies to \(fixture.name)", file: file, line: line)
            return
        }
        // One device for the scenarios in a row that can share it; a fresh one for each that
        // cannot. Only one runs at a time (UDP fixtures all serve on port 1337).
        var shared: (any ConformanceDevice)?
        for scenario in scenarios {
            let device: any ConformanceDevice
            if let existing = shared, !scenario.freshDevice {
                device = existing
            } else {
                shared?.stop()
                shared = nil
                device = try await start(fixture, in: folder)
                test.addTeardownBlock { device.stop() }
                if !scenario.freshDevice { shared = device }
            }
            await run(scenario, on: device, fixtures: folder, file: file, line: line)
            if scenario.freshDevice { device.stop() }
        }
        shared?.stop()  // before the next area starts its own (UDP fixtures share port 1337)
    }

    private func start(_ fixture: ZephyrFixture, in folder: ZephyrFixtureFolder) async throws -> any ConformanceDevice {
        if virtual { return try await VirtualConformanceDevice.start(like: fixture) }
        if fixture.isQEMU { return try await QEMUConformanceDevice.start(fixture, in: folder, route: route) }
        return try await NativeSimConformanceDevice.start(fixture, in: folder, route: route)
    }

    /// Runs one scenario's steps; stops at the first failing step (later steps depend on it).
    private func run(
        _ scenario: ConformanceScenario, on device: any ConformanceDevice, fixtures: ZephyrFixtureFolder, file: StaticString, line: UInt
    ) async {
        let label = "\(device.isVirtual ? "virtual device like " : "")\(device.fixture.name) via \(route): \(scenario.name)"
        var context: ScenarioContext
        do {
            context = ScenarioContext(
                fixture: device.fixture, isVirtual: device.isVirtual, fixtures: fixtures, scratch: try FixtureScratch.makeFolder("scenario"))
        } catch {
            XCTFail("\(label): no scratch folder: \(error)", file: file, line: line)
            return
        }
        defer { try? FileManager.default.removeItem(at: context.scratch) }
        for (index, step) in scenario.steps.enumerated() {
            let stepLabel = "\(label) — step \(index + 1) of \(scenario.steps.count)"
            do {
                let arguments = ["-c", device.connection] + (try step.arguments(context))
                let run = try await SMPCtlInvocation.run(arguments, cache: context.scratch, timeout: step.timeout)
                var problems = step.check(run, context)
                if run.timedOut { problems.insert("smpctl did not finish within \(Int(step.timeout)) s", at: 0) }
                guard problems.isEmpty else {
                    XCTFail("\(stepLabel): \(problems.joined(separator: "; "))\n\(run)\n\(device.logs)", file: file, line: line)
                    return
                }
                if step.resetsDevice { try await device.recoverFromReset() }
                context.previous.append(run)
            } catch {
                XCTFail("\(stepLabel): \(error)\n\(device.logs)", file: file, line: line)
                return
            }
        }
    }
}
