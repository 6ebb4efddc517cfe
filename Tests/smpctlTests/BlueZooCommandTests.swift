import Foundation
import SMPTestSupport
import XCTest

/// The real `smpctl` over Bluetooth LE against BlueZoo, a mock of BlueZ's D-Bus API written by
/// others (Samsung; a test tool, neither linked nor shipped): the device is a GATT server
/// application with the SMP service and an advertisement on BlueZoo's second adapter
/// (`Tests/Fixtures/bluezoo/smp_peripheral.py`), relaying SMP to a virtual device over UDP. Where
/// our own mock (mock_bluez.py) could share our reading of BlueZ's documentation, BlueZoo checks
/// the same commands against someone else's.
final class BlueZooCommandTests: XCTestCase {
    /// A virtual device behind BlueZoo's peripheral, and the environment that points smpctl at
    /// BlueZoo's bus.
    private struct ZooDevice {
        let served: ServedDevice
        let zoo: BlueZoo
        var environment: [String: String] { ["DBUS_SYSTEM_BUS_ADDRESS": zoo.busAddress] }

        /// Runs smpctl with `arguments` on BlueZoo's bus; BlueZoo's log goes with a failure.
        func run(_ arguments: [String], timeout: TimeInterval = 60, file: StaticString = #filePath, line: UInt = #line) async throws -> SMPCtlRun {
            let run = try await SMPCtl.run(arguments, environment: environment, timeout: timeout, file: file, line: line)
            if run.status != 0 { XCTFail("smpctl \(arguments.joined(separator: " ")) failed\n\(zoo.log)", file: file, line: line) }
            return run
        }
    }

    private func startZooDevice(_ peripheralArguments: [String] = [], resetDelay: Duration = .milliseconds(50), bootTime: Duration = .zero) async throws -> ZooDevice {
        let served = try await startDevice(UpgradeFiles.device(resetDelay: resetDelay, bootTime: bootTime))
        let port = try XCTUnwrap(served.endpoint.split(separator: ":").last.flatMap { Int($0) })
        let zoo = try await startBlueZoo(smpPort: port, peripheralArguments: peripheralArguments)
        return ZooDevice(served: served, zoo: zoo)
    }

    func testAScanFindsTheAdvertisedSMPDevice() async throws {
        let ble = try await startZooDevice()
        let scan = try await ble.run(["ble", "scan", "--duration", "3", "--json"])
        assertExit(scan, 0)
        let devices = try XCTUnwrap(try scan.jsonDocument()["devices"]?.array, scan.stdout)
        let device = try XCTUnwrap(devices.first { $0["address"]?.string == BlueZoo.peripheralAddress }, scan.stdout)
        XCTAssertEqual(device["name"]?.string, "Zephyr")
        XCTAssertEqual(device["smp"]?.bool, true, "the advertisement carries the SMP service UUID")
        XCTAssertFalse(devices.contains { $0["address"]?.string == BlueZoo.centralAddress }, "the client's own adapter is not listed")
    }

    /// Several commands in a row, each connecting and disconnecting, by name and by address.
    func testEchoAndImageListConnectAgainAndAgain() async throws {
        let ble = try await startZooDevice()
        let echo = try await ble.run(["os", "echo", "through BlueZoo", "-c", "ble:name=Zephyr"])
        assertExit(echo, 0)
        XCTAssertEqual(echo.stdout, "through BlueZoo\n")
        let list = try await ble.run(["image", "list", "--json", "-c", "ble:\(BlueZoo.peripheralAddress)"])
        assertExit(list, 0)
        XCTAssertEqual(slotLines(try list.jsonDocument()["images"]), ["0/0 1.0.0 ac"])
        let again = try await ble.run(["os", "echo", "once more", "-c", "ble:name=Zephyr?adapter=hci0"])
        assertExit(again, 0)
        XCTAssertEqual(again.stdout, "once more\n")
    }

    /// An MCUboot image made by imgtool, in notifications and writes of MTU - 3 bytes (MTU 247).
    func testAnImageUploadArrivesIntact() async throws {
        let app = try UpgradeFiles.file("app-v2")
        let ble = try await startZooDevice(["--mtu", "247"])
        let run = try await ble.run(["image", "upload", app.path, "--json", "-c", "ble:name=Zephyr"], timeout: 120)
        assertExit(run, 0)
        XCTAssertEqual(try jsonLines(run).last?["match"]?.bool, true, run.stdout)
        let holds = try await slotHolds(ble.served, slot: 1, file: app.path)
        XCTAssertTrue(holds)
    }

    /// The device resets 300 ms after answering, when the peripheral drops the link and stops
    /// advertising for a second; smpctl reconnects and confirms the new image.
    func testAFullUpgradeReconnectsAfterTheResetAndConfirms() async throws {
        let app = try UpgradeFiles.file("app-v2")
        let ble = try await startZooDevice(["--reboot-time", "1.0"], resetDelay: .milliseconds(300), bootTime: .seconds(1))
        let run = try await ble.run(["upgrade", app.path, "--json", "-c", "ble:name=Zephyr"], timeout: 120)
        try await assertUpgradedAfterReconnecting(run, on: ble.served)
        let resets = await ble.served.resets()
        XCTAssertEqual(resets.count, 1)
    }

    /// Just Works with smpctl's KeyboardDisplay agent: the device has no input or output (run_bluezoo.py corrects
    /// BlueZoo, which pairs only for a NoInputNoOutput agent).
    func testJustWorksPairingBondsTheDevice() async throws {
        let ble = try await startZooDevice()
        let echo = try await ble.run(["os", "echo", "paired", "-c", "ble:name=Zephyr?pair=1"])
        assertExit(echo, 0)
        XCTAssertEqual(echo.stdout, "paired\n")
        let scan = try await ble.run(["ble", "scan", "--duration", "2", "--json"])
        let device = try XCTUnwrap(try scan.jsonDocument()["devices"]?.array?.first { $0["address"]?.string == BlueZoo.peripheralAddress }, scan.stdout)
        XCTAssertEqual(device["paired"]?.bool, true, scan.stdout)
    }
}
