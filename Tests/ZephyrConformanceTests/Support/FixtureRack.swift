import Foundation
import SMPTestSupport
import XCTest

/// Real firmware fixtures started together, each under a label, as a rack of devices for the
/// many-device tests (issue 17): native_sim serial fixtures (each its own flash file and pty),
/// the native_sim UDP fixture (127.0.0.1:1337, so at most one) and MCUboot boards
/// (`mps2_an385/serial_recovery` in QEMU with persistent memory, on `serial:tcp://`).
///
/// Everything starts concurrently; the test's teardown stops every process the rack started
/// (and only those) and removes its folders.
final class FixtureRack: @unchecked Sendable {
    /// What a rack holds.
    struct Layout: Sendable {
        /// native_sim/serial fixtures, labelled `bay-1`, `bay-2`, …
        var serialBays: Int
        /// Whether the native_sim/udp fixture runs, labelled `net-1`.
        var udp: Bool
        /// mps2_an385/serial_recovery boards, labelled `qemu-1`, `qemu-2`, …
        var boards: Int
    }

    /// The kind of a device: which fixture, and so which images it takes.
    enum Kind: String, Sendable {
        /// native_sim/serial: no image group and no bootloader, so no upgrade.
        case nativeSimSerial = "native_sim/serial"
        /// native_sim/udp: no image group either.
        case nativeSimUDP = "native_sim/udp"
        /// mps2_an385/serial_recovery: MCUboot (RAM load) and an application with the image group.
        case board = "mps2_an385/serial_recovery"
        /// Not a fixture: a target nothing serves, for the failure cases.
        case absent = "nothing"
    }

    /// One device of the rack.
    struct Member: Sendable {
        /// Its label in targets files and reports (`bay-1`, `net-1`, `qemu-1`).
        var label: String
        var kind: Kind
        /// How smpctl reaches it (`serial:/dev/pts/N`, `udp:127.0.0.1:1337`, `serial:tcp://127.0.0.1:PORT`).
        var connection: String
        /// Its place in the rack (serial bays, then UDP, then boards).
        var order: Int

        /// `LABEL CONNECTION`: its line in a targets file.
        var targetLine: String { "\(label) \(connection)" }
    }

    let folder: ZephyrFixtureFolder
    /// Targets files, images, reports and smpctl's cache.
    let scratch: URL
    private let lock = NSLock()
    private var started: [Member] = []
    private var nativeSims: [String: NativeSimDevice] = [:]
    private var benches: [String: BootloaderBench] = [:]

    /// The mps2 fixture the boards run.
    static let boardConfig = "serial_recovery"

    private init(folder: ZephyrFixtureFolder, scratch: URL) {
        self.folder = folder
        self.scratch = scratch
    }

    /// Starts every device of `layout` at once, stopped by the test's teardown, and waits until
    /// each answers (native_sim: its pty or UDP server is announced; boards: the application
    /// answers `os params`). Skips locally without the fixtures folder; fails in CI.
    static func start(_ layout: Layout, for test: XCTestCase) async throws -> FixtureRack {
        let folder = try ZephyrFixtureFolder.require()
        let serial = try folder.fixture(target: "native_sim", config: "serial")
        let udp = try folder.fixture(target: "native_sim", config: "udp")
        let rack = FixtureRack(folder: folder, scratch: try FixtureScratch.makeFolder("rack"))
        test.addTeardownBlock { rack.stop() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for bay in stride(from: 1, through: layout.serialBays, by: 1) {
                group.addTask {
                    let device = try await NativeSimDevice.start(serial, in: folder)
                    try rack.add(device, label: "bay-\(bay)", kind: .nativeSimSerial, order: bay)
                }
            }
            if layout.udp {
                group.addTask {
                    let device = try await NativeSimDevice.start(udp, in: folder)
                    try rack.add(device, label: "net-1", kind: .nativeSimUDP, order: layout.serialBays + 1)
                }
            }
            for board in stride(from: 1, through: layout.boards, by: 1) {
                group.addTask {
                    let bench = try await BootloaderBench.start(config: boardConfig)
                    rack.add(bench, label: "qemu-\(board)", order: layout.serialBays + 1 + board)
                }
            }
            try await group.waitForAll()
        }
        return rack
    }

    private func add(_ device: NativeSimDevice, label: String, kind: Kind, order: Int) throws {
        lock.withLock { nativeSims[label] = device }
        let connection: String
        switch kind {
        case .nativeSimUDP:
            connection = "udp:127.0.0.1:\(device.fixture.udpPort ?? 1337)"
        case .nativeSimSerial, .board, .absent:
            guard let pty = device.ptyPath else { throw FixtureProcessFailure(message: "\(label): no pty announced", log: device.log) }
            connection = "serial:\(pty)"
        }
        lock.withLock { started.append(Member(label: label, kind: kind, connection: connection, order: order)) }
    }

    private func add(_ bench: BootloaderBench, label: String, order: Int) {
        lock.withLock {
            benches[label] = bench
            started.append(Member(label: label, kind: .board, connection: bench.connection, order: order))
        }
    }

    /// Every device, in rack order.
    var members: [Member] { lock.withLock { started }.sorted { $0.order < $1.order } }

    /// The devices of one kind, in rack order.
    func members(_ kind: Kind) -> [Member] { members.filter { $0.kind == kind } }

    /// The board behind a label.
    func bench(_ label: String) throws -> BootloaderBench {
        guard let bench = lock.withLock({ benches[label] }) else { throw BootloaderBench.Failure("no board labelled \(label) in the rack") }
        return bench
    }

    /// The new application image every board takes (`app-VERSION.bin`, signed once by imgtool).
    func boardImage(version: String) throws -> URL {
        try SignedTestImage.make(
            for: try folder.fixture(target: "mps2_an385", config: Self.boardConfig), in: folder, version: version, scratch: scratch)
    }

    /// Writes `NAME` in the scratch folder: a comment, then `LABEL CONNECTION` per member, then `extra` lines.
    func targetsFile(_ name: String, _ members: [Member], extra: [String] = []) throws -> URL {
        let url = scratch.appendingPathComponent(name)
        let lines = ["# \(name): \(members.count + extra.count) devices of a FixtureRack"] + members.map(\.targetLine) + extra
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// Runs `smpctl ARGUMENTS` (the rack's cache).
    func smpctl(_ arguments: [String], timeout: TimeInterval) async throws -> SMPCtlInvocation {
        try await SMPCtlInvocation.run(arguments, cache: scratch, timeout: timeout)
    }

    /// The logs of every device, for a failing test.
    var logs: String {
        let (sims, boards) = lock.withLock { (nativeSims, benches) }
        let simLogs = sims.sorted { $0.key < $1.key }.map { "--- \($0.key) (\($0.value.fixture.name)) log:\n\($0.value.log.suffix(2000))" }
        let boardLogs = boards.sorted { $0.key < $1.key }.map { "--- \($0.key):\n\($0.value.logs.suffix(2000))" }
        return (simLogs + boardLogs).joined(separator: "\n")
    }

    /// Stops every process the rack started, all at once (each may take its grace period), and
    /// removes its folders.
    func stop() {
        let (sims, boards) = lock.withLock { (Array(nativeSims.values), Array(benches.values)) }
        // A thread each: a stop blocks while it waits (up to its grace period), and a thread
        // pool as wide as this machine's two cores would wait for them in turns.
        let group = DispatchGroup()
        for index in 0..<(sims.count + boards.count) {
            group.enter()
            Thread {
                defer { group.leave() }
                guard index < sims.count else { return boards[index - sims.count].stop() }
                sims[index].stop()
                try? FileManager.default.removeItem(at: sims[index].scratch)
            }.start()
        }
        group.wait()
        try? FileManager.default.removeItem(at: scratch)
    }
}
