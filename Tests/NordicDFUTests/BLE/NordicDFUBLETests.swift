import Crypto
import Foundation
import NordicDFU
import SMPSimulator
import SMPTestSupport
import XCTest

/// An independent legacy DFU client, nrf-ota 0.4.0 (Apache-2.0, over bleak's BlueZ backend), updates
/// the virtual legacy bootloader through the BlueZ mock (`mock_bluez.py --dfu-device`) and the
/// Nordic DFU bridge: so the mock's DFU devices and ``NordicDFUDatagramServer`` work for a client
/// we did not write. The installed image is checked against the package script's own SHA-256.
final class NordicDFUBLETests: XCTestCase {
    private let address = "C0:FF:EE:00:00:01"
    /// A legacy DFU 0.7 package: a 2048-byte application, SoftDevices 0x88 or 0x8C.
    private let packageName = "legacy-0.7.zip"

    private func legacyServer(buttonless: Bool) async throws -> (NordicDFUDatagramServer, Int) {
        let target = LegacyDFUTarget(configuration: LegacyDFUTarget.Configuration(softDeviceID: 0x88))
        let server = NordicDFUDatagramServer(peripheral: NordicDFUPeripheral(legacy: target, buttonless: buttonless), logger: quiet)
        let port = try await server.start()
        addTeardownBlock { await server.stop() }
        return (server, port)
    }

    /// Runs `python -m nrf_ota PACKAGE --device ADDRESS` against the mock's bus, off the
    /// cooperative threads (it takes several seconds of scanning).
    private func nrfOTA(_ package: String, bus: String) async throws -> ProcessRunner.Result {
        try ExternalTool.requirePythonModules(["nrf_ota", "bleak"])
        let arguments = ["-m", "nrf_ota", package, "--device", address, "--timeout", "2", "--prn", "10"]
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result {
                    try ProcessRunner.run(ExternalTool.python, arguments, environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus], timeout: 180)
                })
            }
        }
    }

    /// Checks that the bootloader installed the package's image, once.
    private func assertInstalledThePackage(_ server: NordicDFUDatagramServer, _ packages: GeneratedNordicPackages) async throws {
        let image = try XCTUnwrap(packages.packages[packageName]?.images.first)
        let peripheral = await server.peripheral
        let installed = try XCTUnwrap(peripheral.legacyTarget?.installed)
        XCTAssertEqual(installed.count, 1)
        let digest = SHA256.hash(data: installed.first?.firmware ?? []).map { String(format: "%02x", $0) }.joined()
        XCTAssertEqual(digest, image.sha256)
        XCTAssertEqual(installed.first?.initPacket, GeneratedNordicPackages.bytes(image.initPacket))
    }

    func testNRFOTAUpdatesTheLegacyBootloader() async throws {
        let packages = try GeneratedNordicPackages.load()
        let (server, port) = try await legacyServer(buttonless: false)
        let mock = try await startBlueZMock(["--dfu-device", "\(address),DfuTarg,\(port),legacy"])
        let run = try await nrfOTA(packages.path(packageName), bus: mock.busAddress)
        XCTAssertEqual(run.status, 0, "nrf-ota failed\nstdout: \(run.stdout)\nstderr: \(run.stderr)\nmock: \(mock.log)")
        try await assertInstalledThePackage(server, packages)
        let stats = try mock.stats()
        let packetPath = "/org/bluez/hci0/dev_C0_FF_EE_00_00_01/service000a/char000e"
        // 2048 bytes in 20-byte packets, after the 12 bytes of sizes and the init packet's packets.
        XCTAssertGreaterThanOrEqual(stats["writes:\(packetPath)"] ?? 0, 2048 / 20 + 1 + 2)
        XCTAssertEqual(stats["resets"], 1, "Activate and reset resets the device")
    }

    func testNRFOTARebootsTheLegacyApplicationIntoItsBootloaderFirst() async throws {
        let packages = try GeneratedNordicPackages.load()
        let (server, port) = try await legacyServer(buttonless: true)
        let mock = try await startBlueZMock(["--dfu-device", "\(address),Sensor,\(port),buttonless-legacy"])
        let run = try await nrfOTA(packages.path(packageName), bus: mock.busAddress)
        XCTAssertEqual(run.status, 0, "nrf-ota failed\nstdout: \(run.stdout)\nstderr: \(run.stderr)\nmock: \(mock.log)")
        XCTAssertTrue(run.stdout.contains("triggering bootloader"), run.stdout)
        try await assertInstalledThePackage(server, packages)
        let peripheral = await server.peripheral
        XCTAssertEqual(peripheral.running, .bootloader)
        XCTAssertGreaterThanOrEqual(peripheral.links, 2, "one link to the application, one to the bootloader")
    }
}
