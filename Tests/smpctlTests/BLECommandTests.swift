import Foundation
import SMPSimulator
import SMPTestSupport
import XCTest

/// The real `smpctl` over Bluetooth LE: BlueZ's D-Bus API served by our mock org.bluez on a private
/// bus, whose SMP characteristic is bridged to a virtual device over UDP.
final class BLECommandTests: XCTestCase {
    /// A device behind the mock: the virtual device, the mock, and the environment that points
    /// smpctl at the mock's bus.
    private struct BLEDevice {
        let served: ServedDevice
        let mock: BlueZMock
        var environment: [String: String] { ["DBUS_SYSTEM_BUS_ADDRESS": mock.busAddress] }
    }

    private func startBLEDevice(_ configuration: VirtualDeviceConfiguration, mock arguments: [String] = []) async throws -> BLEDevice {
        let served = try await startDevice(configuration)
        let port = try XCTUnwrap(served.endpoint.split(separator: ":").last.map(String.init))
        let mock = try await startBlueZMock(["--device", "C0:FF:EE:00:00:01,Zephyr,\(port)"] + arguments)
        return BLEDevice(served: served, mock: mock)
    }

    func testEveryKindOfCommandRunsOverBLE() async throws {
        let ble = try await startBLEDevice(UpgradeFiles.device())
        let echo = try await SMPCtl.run(["os", "echo", "over the air", "-c", "ble:name=Zephyr"], environment: ble.environment)
        assertExit(echo, 0)
        XCTAssertEqual(echo.stdout, "over the air\n")
        let byAddress = try await SMPCtl.run(["os", "params", "--json", "-c", "ble:C0:FF:EE:00:00:01"], environment: ble.environment)
        assertExit(byAddress, 0)
        XCTAssertEqual(try byAddress.jsonDocument()["bufferSize"]?.int, 2048)
        let scan = try await SMPCtl.run(["ble", "scan", "--duration", "2", "--json"], environment: ble.environment)
        assertExit(scan, 0)
        XCTAssertTrue(scan.stdout.contains("C0:FF:EE:00:00:01"), "\(scan)")
    }

    /// The other groups over BLE: a file both ways (download answers of a full buffer arrive as
    /// many notifications and are reassembled), shell, settings, statistics, enumeration.
    func testFilesShellSettingsAndDiagnosticsOverBLE() async throws {
        let ble = try await startBLEDevice(UpgradeFiles.device())
        func run(_ arguments: [String]) async throws -> SMPCtlRun {
            let run = try await SMPCtl.run(["-c", "ble:name=Zephyr"] + arguments, environment: ble.environment, timeout: 60)
            assertExit(run, 0)
            return run
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ble-fs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let local = directory.appendingPathComponent("data.bin"), back = directory.appendingPathComponent("back.bin")
        try Data((0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }).write(to: local)
        _ = try await run(["fs", "put", local.path, "/lfs1/data.bin", "--verify"])
        _ = try await run(["fs", "get", "/lfs1/data.bin", back.path, "--verify"])
        XCTAssertEqual(try Data(contentsOf: back), try Data(contentsOf: local))
        let shell = try await run(["shell", "exec", "--", "echo", "over", "the", "air"])
        XCTAssertEqual(shell.stdout, "over the air\n")
        _ = try await run(["settings", "write", "app/mode", "7", "--as", "u8"])
        let setting = try await run(["settings", "read", "app/mode", "--as", "u8"])
        XCTAssertTrue(setting.stdout.contains("7"), setting.stdout)
        let stats = try await run(["stat", "all", "--json"])
        XCTAssertNotNil(try stats.jsonDocument()["groups"]?.array)
        let groups = try await run(["groups", "--json"])
        XCTAssertEqual(try groups.jsonDocument()["source"]?.string, "enumeration")
    }

    func testAnImageUploadOverBLEArrivesIntact() async throws {
        let app = try UpgradeFiles.file("app-v2")
        let ble = try await startBLEDevice(UpgradeFiles.device(), mock: ["--mtu", "498"])
        let run = try await SMPCtl.run(["image", "upload", app.path, "--json", "-c", "ble:name=Zephyr"], environment: ble.environment, timeout: 60)
        assertExit(run, 0)
        XCTAssertEqual(try jsonLines(run).last?["match"]?.bool, true)
        let holds = try await slotHolds(ble.served, slot: 1, file: app.path)
        XCTAssertTrue(holds)
    }

    /// An independent BLE client, smpmgr over bleak, works through our mock: the mock behaves like
    /// bluetoothd for more than our own client, and both tools agree on what the device holds.
    func testSMPMgrOverBleakThroughTheMockAgreesWithSMPCtl() async throws {
        try await SMPMgr.require()
        let app = try UpgradeFiles.file("app-v2")
        let ble = try await startBLEDevice(UpgradeFiles.device())
        let echo = try await SMPMgr.ble("C0:FF:EE:00:00:01", busAddress: ble.mock.busAddress, ["os", "echo", "from bleak"])
        XCTAssertEqual(echo.status, 0, "smpmgr os echo over BLE failed\nstdout: \(echo.stdout)\nstderr: \(echo.stderr)")
        XCTAssertTrue(echo.stdout.contains("r='from bleak'"), echo.stdout)
        let upload = try await SMPMgr.ble("C0:FF:EE:00:00:01", busAddress: ble.mock.busAddress, ["image", "upload", app.path])
        XCTAssertEqual(upload.status, 0, "smpmgr image upload over BLE failed\nstdout: \(upload.stdout)\nstderr: \(upload.stderr)")
        let holds = try await slotHolds(ble.served, slot: 1, file: app.path)
        XCTAssertTrue(holds, "the slot holds what smpmgr uploaded over BLE")
        let list = try await SMPCtl.run(["image", "list", "--json", "-c", "ble:name=Zephyr"], environment: ble.environment)
        assertExit(list, 0)
        XCTAssertTrue(list.stdout.contains("\"version\":\"2.0.0\""), list.stdout)
    }

    func testAFullUpgradeReconnectsAfterTheResetAndConfirms() async throws {
        let app = try UpgradeFiles.file("app-v2")
        // The device resets 300 ms after its answer, when the mock drops the link, and is away for a second.
        let ble = try await startBLEDevice(
            UpgradeFiles.device(resetDelay: .milliseconds(300), bootTime: .seconds(1)), mock: ["--reboot-time", "1.0"])
        let run = try await SMPCtl.run(["upgrade", app.path, "--json", "-c", "ble:name=Zephyr"], environment: ble.environment, timeout: 90)
        try await assertUpgradedAfterReconnecting(run, on: ble.served)
    }

    func testAnUpgradeFindsTheDeviceByNameWhenItComesBackUnderAnotherAddress() async throws {
        let app = try UpgradeFiles.file("app-v2")
        let ble = try await startBLEDevice(
            UpgradeFiles.device(resetDelay: .milliseconds(300), bootTime: .seconds(1)),
            mock: ["--reboot-time", "1.0", "--new-address-after-reset", "C0:FF:EE:00:00:99"])
        let run = try await SMPCtl.run(["upgrade", app.path, "-c", "ble:name=Zephyr"], environment: ble.environment, timeout: 90)
        assertExit(run, 0)
        let slots = try await listedSlots(ble.served)
        XCTAssertEqual(slots.first, "0/0 2.0.0 ac")
        let scan = try await SMPCtl.run(["ble", "scan", "--duration", "1.5", "--json"], environment: ble.environment)
        XCTAssertTrue(scan.stdout.contains("C0:FF:EE:00:00:99"), "the device now advertises under its new address\n\(scan)")
    }

    func testALostLinkMidUploadResumesOnTheNextRun() async throws {
        let app = try UpgradeFiles.file("app-v2")
        // Paced like a real connection: 2 packets per 15 ms interval, so the upload takes a while.
        let ble = try await startBLEDevice(UpgradeFiles.device(), mock: ["--interval-ms", "15", "--packets-per-interval", "2"])
        let arguments = ["image", "upload", app.path, "--json", "-c", "ble:name=Zephyr"]
        let first = try BackgroundProcess(smpctl: arguments, environment: ble.environment)
        addTeardownBlock { first.stop() }
        let progressed = await first.waitForLine { line in
            guard line.contains("\"event\":\"progress\""), let range = line.range(of: #""acknowledged":(\d+)"#, options: .regularExpression)
            else { return false }
            return (Int(line[range].dropFirst(15)) ?? 0) > app.size / 4
        }
        XCTAssertNotNil(progressed, first.stderr)
        _ = try ble.mock.control("DropLink")
        let status = await first.waitForExit(timeout: 20)
        XCTAssertNotNil(status)
        XCTAssertNotEqual(status, 0, first.stderr)
        let second = try await SMPCtl.run(arguments, environment: ble.environment, timeout: 90)
        assertExit(second, 0)
        let done = try XCTUnwrap(try jsonLines(second).last)
        XCTAssertGreaterThan(try XCTUnwrap(done["resumedFrom"]?.int, "the upload resumed\n\(second)"), app.size / 4)
        let holds = try await slotHolds(ble.served, slot: 1, file: app.path)
        XCTAssertTrue(holds)
    }

    func testNoBusOrNoBluetoothdGiveClearErrors() async throws {
        let noBus = try await SMPCtl.run(
            ["os", "echo", "x", "-c", "ble:name=Zephyr"], environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/bus"])
        assertExit(noBus, 69)
        XCTAssertTrue(noBus.stderr.lowercased().contains("bus"), noBus.stderr)
    }
}
