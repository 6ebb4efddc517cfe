import Foundation
import SMPSimulator
import XCTest

/// One command of every management group through the real `smpctl` over a pseudo-terminal with
/// Zephyr's serial defaults (384-byte buffers): the console framing carries every group.
final class GroupsOverSerialTests: XCTestCase {
    private func run(_ arguments: [String], on served: ServedSerialDevice, file: StaticString = #filePath, line: UInt = #line) async throws -> SMPCtlRun {
        let run = try await SMPCtl.run(["-c", served.connection] + arguments, timeout: 60)
        assertExit(run, 0, file: file, line: line)
        return run
    }

    func testEveryZephyrGroupOverTheSerialLink() async throws {
        let served = try await startSerialDevice()
        let groups = try await run(["groups", "--json"], on: served)
        XCTAssertEqual(try groups.jsonDocument()["groups"]?.array?.compactMap { $0["group"]?.int }.sorted(), [0, 1, 2, 3, 8, 9, 10, 63])

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("serial-groups-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7) }).write(to: file)
        _ = try await run(["fs", "put", file.path, "/lfs1/data.bin", "--verify"], on: served)
        let stat = try await run(["fs", "stat", "/lfs1/data.bin", "--json"], on: served)
        XCTAssertEqual(try stat.jsonDocument()["size"]?.int, 5000)

        let shell = try await run(["shell", "exec", "--", "echo", "over", "serial"], on: served)
        XCTAssertEqual(shell.stdout, "over serial\n")

        _ = try await run(["settings", "write", "app/greeting", "hello", "--as", "string"], on: served)
        let read = try await run(["settings", "read", "app/greeting"], on: served)
        XCTAssertTrue(read.stdout.contains("hello"), read.stdout)

        let stats = try await run(["stat", "list", "--json"], on: served)
        XCTAssertEqual(try stats.jsonDocument()["groups"]?.array?.compactMap(\.string), ["smp_svr_stats", "mgmt"])
        let count = try await run(["enum", "count"], on: served)
        XCTAssertEqual(count.stdout, "8\n")
        _ = try await run(["zephyr", "erase-storage", "--yes"], on: served)
    }

    func testMynewtGroupsOverTheSerialLink() async throws {
        var configuration = VirtualDeviceConfiguration.mynewtForTests
        configuration.bufferSize = 384
        let served = try await startSerialDevice(configuration)
        let logs = try await run(["log", "list", "--json"], on: served)
        XCTAssertFalse(try XCTUnwrap(logs.jsonDocument()["logs"]?.array).isEmpty, logs.stdout)
        let show = try await run(["log", "show", "--json"], on: served)
        XCTAssertFalse(show.stdout.isEmpty)
        let tests = try await run(["run", "list"], on: served)
        XCTAssertTrue(tests.stdout.contains("os_test"), tests.stdout)
    }

    func testSUITGroupOverTheSerialLink() async throws {
        var configuration = VirtualDeviceConfiguration.serialImageDevice
        configuration.makeSUITDevice()
        let served = try await startSerialDevice(configuration)
        let manifests = try await run(["suit", "manifests", "--json"], on: served)
        XCTAssertNotNil(try manifests.jsonDocument()["manifests"]?.array, manifests.stdout)
    }
}
