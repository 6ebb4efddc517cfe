import Crypto
import Foundation
import SMPSimulator
import SMPTestSupport
import XCTest

/// `smpctl upgrade PACKAGE -c ble:…` with Nordic DFU packages: the real `smpctl` through the
/// BlueZ mock (`mock_bluez.py --dfu-device`) to a virtual Secure or legacy DFU device served by
/// ``NordicDFUDatagramServer``, with buttonless entry from the application where it offers it.
final class NordicDFUBluetoothCommandTests: XCTestCase {
    private let address = "C0:FF:EE:00:00:01"

    private struct Bench {
        let server: NordicDFUDatagramServer
        let mock: BlueZMock
        let folder: URL

        var environment: [String: String] { ["DBUS_SYSTEM_BUS_ADDRESS": mock.busAddress] }
        func package(_ name: String) -> String { folder.appendingPathComponent(name).path }
        var secureTarget: SecureDFUTarget? { get async { await server.peripheral.secureTarget } }
    }

    /// A Secure DFU device that wants packages signed with the set's key, behind the mock as
    /// `KIND` (`secure`, `buttonless-secure`, `buttonless-secure-bonded`), with `mock` options.
    private func startSecure(_ kind: String, buttonless: NordicDFUPeripheral.ButtonlessService? = nil, mock options: [String] = []) async throws -> Bench {
        let folder = try NordicDFUPackageSet.folder()
        let pem = try String(contentsOf: folder.appendingPathComponent("public.pem"), encoding: .utf8)
        let validation = SecureDFUValidation(publicKey: try P256.Signing.PublicKey(pemRepresentation: pem))
        let peripheral = try NordicDFUPeripheral(secure: SecureDFUTarget(configuration: validation.configuration()), buttonless: buttonless)
        return try await start(peripheral, kind: kind, folder: folder, mock: options)
    }

    private func start(_ peripheral: NordicDFUPeripheral, kind: String, folder: URL, mock options: [String]) async throws -> Bench {
        let server = NordicDFUDatagramServer(peripheral: peripheral)
        let port = try await server.start()
        addTeardownBlock { await server.stop() }
        let mock = try await startBlueZMock(["--dfu-device", "\(address),Sensor,\(port),\(kind)"] + options)
        return Bench(server: server, mock: mock, folder: folder)
    }

    func testASignedPackageInstallsOverBLEWithWritesOfTheMTU() async throws {
        let bench = try await startSecure("secure", mock: ["--mtu", "247"])
        let run = try await SMPCtl.run(
            ["upgrade", bench.package("secure-signed.zip"), "--json", "-c", "ble:\(address)"], environment: bench.environment, timeout: 120)
        assertExit(run, 0)
        let events = try jsonLines(run)
        XCTAssertEqual(events.first?["bootloader"]?.string, "Nordic Secure DFU")
        XCTAssertEqual(events.first?["link"]?.string, "BLE \(address)")
        XCTAssertEqual(events.first?["writeSize"]?.int, 244, "MTU 247 − 3")
        let installed = await bench.secureTarget?.installed.map(\.firmware.count)
        XCTAssertEqual(installed, [5003])
    }

    /// SoftDevice and bootloader, then the application, over BLE: after the first image the
    /// bootloader resets and is found again, and the second goes to it.
    func testAMultiImagePackageInstallsOverBLEAcrossTheBootloadersReset() async throws {
        let bench = try await startSecure("secure", mock: ["--mtu", "247"])
        let run = try await SMPCtl.run(
            ["upgrade", bench.package("secure-multi.zip"), "--json", "-c", "ble:\(address)"], environment: bench.environment, timeout: 120)
        assertExit(run, 0)
        let events = try jsonLines(run)
        XCTAssertEqual(startedSteps(events), ["upload", "wait", "upload"])
        XCTAssertEqual(events.last?["installed"]?.array?.compactMap(\.string), ["softdevice_bootloader", "application"])
        let installed = await bench.secureTarget?.installed.map(\.firmware.count)
        XCTAssertEqual(installed, [6000, 5003])
    }

    func testTheApplicationIsSentIntoItsBootloaderThroughButtonlessDFU() async throws {
        for (kind, service) in [("buttonless-secure", NordicDFUPeripheral.ButtonlessService.secure), ("buttonless-secure-bonded", .secureBonded)] {
            let bench = try await startSecure(kind, buttonless: service)
            let run = try await SMPCtl.run(
                ["upgrade", bench.package("secure-unsigned.zip"), "--json", "-c", "ble:\(address)"], environment: bench.environment, timeout: 120)
            // The bootloader wants signed packages: the unsigned one is refused once the
            // application has handed over, which proves the bootloader was reached.
            XCTAssertEqual(run.status, 2, "\(kind): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("signature"), "\(kind): \(run.stderr)")
            let signed = try await SMPCtl.run(
                ["upgrade", bench.package("secure-signed.zip"), "--json", "-c", "ble:\(address)"], environment: bench.environment, timeout: 120)
            assertExit(signed, 0)
            let link = try jsonLines(signed).first?["link"]?.string
            XCTAssertEqual(link, service == .secure ? "BLE C0:FF:EE:00:00:02" : "BLE \(address)", "\(kind): the next address without bonds, the same with")
            let installed = await bench.secureTarget?.installed.map(\.firmware.count)
            XCTAssertEqual(installed, [5003], kind)
        }
    }

    func testCtrlCOverBLEStopsAndTheSameCommandContinuesWhereTheBootloaderStopped() async throws {
        let bench = try await startSecure("secure", mock: ["--mtu", "247"])
        let arguments = ["upgrade", bench.package("secure-medium.zip"), "--json", "-c", "ble:\(address)"]
        let stderr = try await interruptedUpgrade(arguments, environment: bench.environment, afterAcknowledgedDigits: 5)
        XCTAssertTrue(stderr.contains("smpctl upgrade \(bench.package("secure-medium.zip")) -c ble:\(address)"), stderr)
        let before = await bench.secureTarget?.installed.count
        XCTAssertEqual(before, 0, "nothing installed yet")

        let second = try await SMPCtl.run(arguments, environment: bench.environment, timeout: 120)
        assertExit(second, 0)
        let done = try XCTUnwrap(try jsonLines(second).last)
        let resumedFrom = try XCTUnwrap(done["uploads"]?[0]?["resumedFrom"]?.int, "it continued\n\(second.stdout)")
        XCTAssertGreaterThanOrEqual(resumedFrom, 4096)
        XCTAssertLessThan(try XCTUnwrap(done["uploads"]?[0]?["bytesSent"]?.int), 96 << 10, "only the rest was sent (and at most one object again)")
        let installed = await bench.secureTarget?.installed.map(\.firmware.count)
        XCTAssertEqual(installed, [96 << 10])
    }

    func testALegacyPackageInstallsOverBLEFromTheApplicationThroughItsButtonlessEntry() async throws {
        let target = LegacyDFUTarget(configuration: LegacyDFUTarget.Configuration(softDeviceID: 0x88))
        let bench = try await start(
            NordicDFUPeripheral(legacy: target, buttonless: true), kind: "buttonless-legacy", folder: try NordicDFUPackageSet.folder(), mock: [])
        let run = try await SMPCtl.run(
            ["upgrade", bench.package("legacy-0.7.zip"), "--json", "-c", "ble:\(address)"], environment: bench.environment, timeout: 120)
        assertExit(run, 0)
        let device = try XCTUnwrap(try jsonLines(run).first)
        XCTAssertEqual(device["bootloader"]?.string, "Nordic legacy DFU")
        XCTAssertEqual(device["link"]?.string, "BLE \(address)", "the legacy bootloader keeps the application's address")
        XCTAssertEqual(device["writeSize"]?.int, 20)
        let peripheral = await bench.server.peripheral
        XCTAssertEqual(peripheral.legacyTarget?.installed.map(\.firmware.count), [2048])
        let secure = try await SMPCtl.run(
            ["upgrade", bench.package("secure-signed.zip"), "-c", "ble:\(address)"], environment: bench.environment, timeout: 120)
        assertExit(secure, 65)
        XCTAssertTrue(secure.stderr.contains("runs a Nordic legacy DFU bootloader"), secure.stderr)
    }

    /// `--bare` over BLE: an nRF5 SDK 6 bootloader refuses Start with a mode, takes the "version
    /// 1" Start and the application without an init packet; an SDK 11 one takes Start with a mode,
    /// so it wants an init packet: refused (65) before any of the image is sent, the bootloader
    /// reset.
    func testABareApplicationGoesToAnSDK6BootloaderOverBLEAndNotToAnSDK11One() async throws {
        try ExternalTool.requirePythonModules(["intelhex"])
        let files = try BareApplication.files(in: self)
        let folder = try NordicDFUPackageSet.folder()
        let old = try await start(
            NordicDFUPeripheral(legacy: LegacyDFUTarget(configuration: LegacyDFUTarget.Configuration(version1: true)), buttonless: false),
            kind: "legacy", folder: folder, mock: [])
        let run = try await SMPCtl.run(["upgrade", files.hex, "--bare", "--json", "-c", "ble:\(address)"], environment: old.environment, timeout: 120)
        assertExit(run, 0)
        XCTAssertEqual(try jsonLines(run).first?["bootloader"]?.string, "Nordic legacy DFU")
        let installed = await old.server.peripheral.legacyTarget?.installed
        XCTAssertEqual(installed?.map(\.firmware), [BareApplication.firmware])
        XCTAssertEqual(installed?.map(\.initPacket), [[]])
        await old.server.stop()

        let current = try await start(NordicDFUPeripheral(legacy: LegacyDFUTarget(), buttonless: false), kind: "legacy", folder: folder, mock: [])
        let refused = try await SMPCtl.run(["upgrade", files.bin, "--bare", "-c", "ble:\(address)"], environment: current.environment, timeout: 120)
        assertExit(refused, 65)
        XCTAssertTrue(refused.stderr.contains(
            "app.bin is a bare application (no init packet), and the bootloader took Start with a mode (nRF5 SDK 7–11)"), refused.stderr)
        let statistics = await current.server.peripheral.legacyTarget?.statistics
        XCTAssertEqual(statistics?.dataBytesReceived, 0, "none of the image was sent")
        XCTAssertEqual(statistics?.requests[.reset], 1, "the bootloader was reset for the next attempt")
    }

    func testAnSMPDeviceIsNamedAsSuchAndNothingIsSent() async throws {
        let served = try await startDevice(UpgradeFiles.device())
        let port = try XCTUnwrap(served.endpoint.split(separator: ":").last.map(String.init))
        let mock = try await startBlueZMock(["--device", "\(address),Zephyr,\(port)"])
        let folder = try NordicDFUPackageSet.folder()
        let run = try await SMPCtl.run(
            ["upgrade", folder.appendingPathComponent("secure-signed.zip").path, "-c", "ble:\(address)"],
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": mock.busAddress], timeout: 60)
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.stderr.contains("runs an SMP (MCUmgr) server, not a Nordic DFU bootloader"), run.stderr)
        let absent = try await SMPCtl.run(
            ["upgrade", folder.appendingPathComponent("secure-signed.zip").path, "-c", "ble:C0:FF:EE:00:00:09?timeout=3"],
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": mock.busAddress], timeout: 60)
        assertExit(absent, 69)
        XCTAssertTrue(absent.stderr.contains("no device answered at that address within 1.0 seconds, nor a bootloader it left behind "
            + "(advertising as Dfu000009)"), absent.stderr)
    }

    func testBLEScanMarksDFUDevices() async throws {
        let bench = try await startSecure("secure")
        let scan = try await SMPCtl.run(["ble", "scan", "--duration", "2", "--json"], environment: bench.environment)
        assertExit(scan, 0)
        let devices = try XCTUnwrap(scan.jsonDocument()["devices"]?.array)
        XCTAssertEqual(devices.first?["dfu"]?.string, "secure", "\(scan)")
        XCTAssertEqual(devices.first?["smp"]?.bool, false)
    }
}
