import Foundation
import SMP
import SMPKit
import SMPSimulator
import SMPTestSupport
import XCTest

/// labgrid places as smpctl targets (docs/labs.md), in a real labgrid lab on loopback: a
/// coordinator and two exporters ("host-a", "host-b"), each exporting virtual serial devices,
/// one place per board. The lab starts once for the class.
final class LabgridLabTests: XCTestCase {
    /// Four boards on two exporters upgraded by one `--jobs 2` run; a place someone else holds is
    /// refused, naming the holder, and left to them; every place smpctl took is released; a rerun
    /// skips the boards that run the image; the report records each place.
    func testOneRunUpgradesThePlacesOnBothExportersAndLeavesAPlaceSomeoneElseHolds() async throws {
        let rack = try await LabgridRack.shared.started()
        let lab = rack.lab
        let image = try UpgradeFiles.file("app-v2")
        let json = try temporaryFolder().appendingPathComponent("run.json").path
        let environment = rack.environment(coordinator: lab.coordinator)

        let listed = try await SMPCtl.run(["targets", "-c", "labgrid:rack-*", "--json"], environment: environment)
        assertExit(listed, 0)
        let names = try JSONNode(JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)))["targets"]?.array?.compactMap { $0["name"]?.string }
        XCTAssertEqual(names, ["rack-1", "rack-2", "rack-3", "rack-4"], listed.description)
        for place in ["rack-1", "rack-2", "rack-3", "rack-4"] { XCTAssertNil(try lab.holder(of: place), "listing acquired \(place)") }

        let taken = try lab.client(["-p", "rack-4", "acquire"], user: "alice", host: "bench")
        XCTAssertEqual(taken.status, 0, taken.stderr)
        let table = try await SMPCtl.run(["targets", "-c", "labgrid:rack-[34]"], environment: environment)
        assertExit(table, 0)
        let rows = table.stdout.split(separator: "\n")
        XCTAssertTrue(rows.first?.hasSuffix("HELD BY") == true && rows.contains { $0.hasPrefix("rack-4 ") && $0.hasSuffix(" bench/alice") }, table.description)
        XCTAssertTrue(rows.contains { $0.hasPrefix("rack-3 ") && $0.hasSuffix(" -") }, table.description)
        addTeardownBlock { _ = try? lab.client(["-p", "rack-4", "release"], user: "alice", host: "bench") }
        let arguments = ["upgrade", image.path, "-c", "labgrid:rack-*", "--jobs", "2", "--report", json, "--progress", "plain"]
        let first = try await SMPCtl.run(arguments, environment: environment, timeout: 90)
        assertExit(first, 3)
        XCTAssertTrue(first.stdout.contains("3 succeeded, 1 failed"), first.description)
        assertStderr(first, contains: "place rack-4 is acquired by bench/alice", "labgrid-client -p rack-4 show")
        let report = try reportDocument(json)
        let entries = try XCTUnwrap(report["devices"]?.array)
        XCTAssertEqual(entries.map { $0["name"]?.string }, ["rack-1", "rack-2", "rack-3", "rack-4"])
        XCTAssertEqual(entries.map { $0["connection"]?.string }, ["labgrid:rack-1", "labgrid:rack-2", "labgrid:rack-3", "labgrid:rack-4"])
        XCTAssertEqual(entries.map { $0["status"]?.string }, ["succeeded", "succeeded", "succeeded", "failed"], lab.logs)
        XCTAssertTrue(entries[0]["phases"]?.array?.contains { $0["name"]?.string == "acquire" } == true, "\(entries[0])")
        XCTAssertEqual(entries[3]["error"]?["message"]?.string, "place rack-4 is acquired by bench/alice")
        for place in ["rack-1", "rack-2", "rack-3"] { XCTAssertNil(try lab.holder(of: place), "\(place) is still acquired") }
        XCTAssertEqual(try lab.holder(of: "rack-4"), "bench/alice")

        let again = try await SMPCtl.run(arguments, environment: environment, timeout: 90)
        assertExit(again, 3)
        let rerun = try reportDocument(json)
        XCTAssertEqual(rerun["summary"]?["skipped"]?.int, 3, again.description)

        // Released by its holder, the place is reached; places in a targets file, with their own
        // coordinator (LG_COORDINATOR names none here), a label, and a glob's [...].
        XCTAssertEqual(try lab.client(["-p", "rack-4", "release"], user: "alice", host: "bench").status, 0)
        let targets = try targetsFile(
            ["labgrid:rack-1?coordinator=\(lab.coordinator)", "labgrid:rack-[4]?coordinator=\(lab.coordinator)"], labels: ["bay-1", "bay-4"])
        let echo = try await SMPCtl.run(["os", "echo", "hi", "--targets", targets, "-q"], environment: rack.environment(coordinator: "127.0.0.1:9"))
        assertExit(echo, 0)
        XCTAssertTrue(echo.stdout.contains("bay-1: hi") && echo.stdout.contains("bay-4: hi"), echo.description)
        XCTAssertNil(try lab.holder(of: "rack-4"))
    }

    /// The library: a place is acquired for the body alone and released as soon as it returns,
    /// while the session stays; one held by someone else is refused, naming them.
    func testALibraryUserHoldsAPlaceForTheBodyAlone() async throws {
        let rack = try await LabgridRack.shared.started()
        let lab = rack.lab
        setenv("SMPCTL_LABGRID_PYTHON", rack.python, 1)
        let place = ConnectionString(target: .labgridPlace(LabgridPlace(name: "rack-2", coordinator: lab.coordinator)))
        let echoed = try await LabgridCoordinator.withDevice(of: place) { connection in
            XCTAssertEqual(try lab.holder(of: "rack-2")?.isEmpty, false)
            let client = try await SMPConnection.open(connection)
            defer { Task { await client.close() } }
            return try await client.send(OSEcho("hi"))
        }
        XCTAssertEqual(echoed, "hi")
        XCTAssertNil(try lab.holder(of: "rack-2"), "rack-2 is still acquired after the body")

        XCTAssertEqual(try lab.client(["-p", "rack-3", "acquire"], user: "bob", host: "desk").status, 0)
        defer { _ = try? lab.client(["-p", "rack-3", "release"], user: "bob", host: "desk") }
        let session = try await LabgridCoordinator.shared(address: lab.coordinator)
        let listed = try await session.places(matching: "rack-[23]")
        XCTAssertEqual(listed.map(\.name), ["rack-2", "rack-3"])
        XCTAssertEqual(listed.map(\.holder), [nil, "desk/bob"])
        do {
            _ = try await session.acquire("rack-3")
            XCTFail("a place bob holds was acquired")
        } catch let error as SMPTransportError {
            XCTAssertEqual(error.kind, .refused)
            XCTAssertEqual(error.message, "place rack-3 is acquired by desk/bob")
        }
        await LabgridCoordinator.closeAll()
        XCTAssertEqual(try lab.holder(of: "rack-3"), "desk/bob")
    }

    /// Real Zephyr firmware in the lab: a native_sim `serial` fixture on each exporter (host-a's
    /// behind the lab's raw ser2net, host-b's behind the exporter's own RFC 2217 ser2net), both
    /// answering one `--jobs 2` run, their places released after.
    func testZephyrFixturesOnBothExportersAnswerOneRun() async throws {
        let rack = try await LabgridRack.shared.started()
        let run = try await SMPCtl.run(
            ["os", "echo", "hello zephyr", "-c", "labgrid:zephyr-*", "--jobs", "2"], environment: rack.environment(coordinator: rack.lab.coordinator))
        assertExit(run, 0)
        XCTAssertEqual(run.stdout.split(separator: "\n").filter { $0.hasSuffix(": hello zephyr") }.sorted(),
                       ["zephyr-a: hello zephyr", "zephyr-b: hello zephyr"], "\(run)\n\(rack.lab.logs)")
        XCTAssertTrue(run.stdout.contains("2 succeeded"), "\(run)")
        for place in ["zephyr-a", "zephyr-b"] { XCTAssertNil(try rack.lab.holder(of: place), "\(place) is still acquired") }
    }

    /// Ctrl-C in the middle of an upgrade: the device is interrupted and its place released.
    func testCtrlCReleasesThePlace() async throws {
        let rack = try await LabgridRack.shared.started()
        let image = try UpgradeFiles.file("app-v2")
        let process = try BackgroundProcess(
            smpctl: ["upgrade", image.path, "-c", "labgrid:slow-1", "--progress", "plain"], environment: rack.environment(coordinator: rack.lab.coordinator))
        let started = await process.waitForErrorLine { $0.contains(#/: upload [1-9]\d?% /#) }
        XCTAssertNotNil(started, "no upload progress\n\(process.stderr)\n\(rack.lab.logs)")
        XCTAssertEqual(try rack.lab.holder(of: "slow-1")?.isEmpty, false)
        process.send(SIGINT)
        let status = await process.waitForExit(timeout: 30)
        XCTAssertEqual(status, 130, process.stderr)
        XCTAssertNil(try rack.lab.holder(of: "slow-1"), "slow-1 is still acquired after Ctrl-C")
    }

    /// Without labgrid, the error says how to install it.
    func testWithoutLabgridTheErrorSaysHowToInstallIt() async throws {
        let run = try await SMPCtl.run(
            ["os", "echo", "hi", "-c", "labgrid:rack-1"], environment: ["SMPCTL_LABGRID_PYTHON": "", "PATH": "/nonexistent"])
        assertExit(run, 69)
        assertStderr(run, contains: "labgrid is not installed", "pip install labgrid (or set SMPCTL_LABGRID_PYTHON to its Python)")
    }

    override class func tearDown() {
        LabgridRack.shared.stop()
        super.tearDown()
    }
}

/// The lab of ``LabgridLabTests``: host-a exports boards 1 and 2, host-b boards 3 and 4 and a slow
/// board, each a virtual serial device (host-a's behind the lab's ser2net, host-b's behind the
/// exporter's own, over RFC 2217), and each a native_sim `serial` fixture; places rack-1…rack-4,
/// slow-1, zephyr-a and zephyr-b.
final class LabgridRack: @unchecked Sendable {
    static let shared = LabgridRack()

    /// A started lab.
    struct Started: Sendable {
        let lab: LabgridLab
        let python: String
        let boards: [ServedBoard]
        let fixtures: [NativeSimDevice]

        /// smpctl's environment: labgrid's Python, and `LG_COORDINATOR`.
        func environment(coordinator: String) -> [String: String] {
            ["SMPCTL_LABGRID_PYTHON": python, "LG_COORDINATOR": coordinator]
        }
    }

    /// A virtual device on a pseudo-terminal.
    struct ServedBoard: Sendable {
        let device: VirtualDevice
        let server: PTYSimulatorServer
    }

    private let lock = NSLock()
    private var task: Task<Started, any Error>?

    /// The lab, started by the first caller.
    func started() async throws -> Started {
        let task = lock.withLock {
            if let task = self.task { return task }
            let task = Task { try await Self.start() }
            self.task = task
            return task
        }
        return try await task.value
    }

    private static func start() async throws -> Started {
        let python = try LabgridLab.python()
        let lab = try await LabgridLab.start()
        let scratch = try FixtureScratch.makeFolder("labgrid-boards")
        var boards: [ServedBoard] = []
        var paths: [String] = []
        for index in 0..<5 {
            let faults = index == 4 ? FaultInjection(delay: 1, delayDuration: .milliseconds(60)) : FaultInjection.none
            let device = VirtualDevice(configuration: .serialImageDevice, faultInjection: faults)
            let server = PTYSimulatorServer(device: device, linkPath: scratch.appendingPathComponent("board-\(index + 1)").path)
            paths.append(try await server.start())
            boards.append(ServedBoard(device: device, server: server))
        }
        // host-a: a lab's own ser2net in raw mode (NetworkSerialPort); host-b: labgrid's way, the
        // exporter running ser2net (telnet with RFC 2217) on each pseudo-terminal while its place is acquired.
        let folder = try ZephyrFixtureFolder.require()
        var fixtures: [NativeSimDevice] = []
        for _ in 0..<2 {
            let fixture = try await NativeSimDevice.start(try folder.fixture(target: "native_sim", config: "serial"), in: folder)
            fixtures.append(fixture)
            guard let pty = fixture.ptyPath else { throw FixtureProcessFailure(message: "no pty for the native_sim fixture", log: fixture.log) }
            paths.append(pty)
        }
        let ports = try await lab.serve([paths[0], paths[1], paths[5]])
        try await lab.export("host-a", [
            ("board-1", .rawServer(port: ports[0])), ("board-2", .rawServer(port: ports[1])), ("zephyr", .rawServer(port: ports[2])),
        ])
        let ttys = paths.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path }
        try await lab.export("host-b", [("board-3", .tty(ttys[2])), ("board-4", .tty(ttys[3])), ("slow", .tty(ttys[4])), ("zephyr", .tty(ttys[6]))])
        for (place, match) in [
            ("rack-1", "host-a/board-1"), ("rack-2", "host-a/board-2"), ("rack-3", "host-b/board-3"), ("rack-4", "host-b/board-4"),
            ("slow-1", "host-b/slow"), ("zephyr-a", "host-a/zephyr"), ("zephyr-b", "host-b/zephyr"),
        ] {
            try lab.place(place, matching: match)
        }
        return Started(lab: lab, python: python, boards: boards, fixtures: fixtures)
    }

    /// Ends the lab and the boards.
    func stop() {
        guard let task = lock.withLock({ self.task }) else { return }
        let done = DispatchSemaphore(value: 0)
        Task {
            if let started = try? await task.value {
                started.lab.stop()
                for board in started.boards { await board.server.stop() }
                for fixture in started.fixtures { fixture.stop() }
            }
            done.signal()
        }
        done.wait()
    }
}
