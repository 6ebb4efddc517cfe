import Crypto
import Foundation
import SMPSimulator
import SMPTestSupport
import XCTest

/// `smpctl upgrade LEGACY.zip -c serial:PATH` with the legacy packages of the independent encoder
/// (``NordicDFUPackageSet``) against the virtual legacy serial bootloader on a pseudo-terminal
/// (HCI packets, acknowledgements, restarts where it refuses).
final class LegacyDFUSerialUpgradeCommandTests: XCTestCase {
    private struct Bench {
        let server: LegacyDFUSerialPTYServer
        let connection: String
        let folder: URL

        func package(_ name: String) -> String { folder.appendingPathComponent(name).path }

        /// The SHA-256 of each image of `name`, from the encoder's description.
        func imageDigests(_ name: String) throws -> [String] {
            let data = try Data(contentsOf: folder.appendingPathComponent("packages.json"))
            let described = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let package = try XCTUnwrap(described[name] as? [String: Any], name)
            let images = try XCTUnwrap(package["images"] as? [[String: Any]])
            return try images.map { try XCTUnwrap($0["sha256"] as? String) }
        }
    }

    /// A bootloader running S132's 0x8C (legacy-0.7.zip's requirement, unless `softDevice` says
    /// otherwise), with `faults`.
    /// With `version1`, an nRF5 SDK ≤ 6 bootloader: no init packet.
    private func start(softDevice: UInt16 = 0x8C, version1: Bool = false, faults: LegacyDFUSerialPTYServer.Faults = .init()) async throws -> Bench {
        let folder = try NordicDFUPackageSet.folder()
        let link = (NSTemporaryDirectory() as NSString).appendingPathComponent("smpctl-\(getpid())-\(UUID().uuidString.prefix(8))-ldfu")
        let target = LegacyDFUTarget(configuration: LegacyDFUTarget.Configuration(version1: version1, softDeviceID: softDevice))
        let server = LegacyDFUSerialPTYServer(target: target, linkPath: link, faults: faults)
        let path = try await server.start()
        addTeardownBlock { await server.stop() }
        return Bench(server: server, connection: "serial:\(path)", folder: folder)
    }

    private func digest(_ bytes: [UInt8]) -> String { SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined() }

    func testLegacyPackagesInstallAndTheInstalledImagesAreTheBins() async throws {
        let bench = try await start()
        for name in ["legacy-0.7.zip", "legacy-sdbl-0.5.zip"] {
            let run = try await SMPCtl.run(["upgrade", bench.package(name), "--json", "-c", bench.connection], timeout: 60)
            assertExit(run, 0)
            let events = try jsonLines(run)
            XCTAssertEqual(events.first?["bootloader"]?.string, "Nordic legacy DFU")
            XCTAssertEqual(events.first?["writeSize"]?.int, 512)
            XCTAssertEqual(startedSteps(events), ["upload"])
        }
        let installed = await bench.server.target.installed
        XCTAssertEqual(installed.map(\.mode), [4, 3], "an application, then a SoftDevice and bootloader")
        XCTAssertEqual(installed.map { digest($0.firmware) }, try bench.imageDigests("legacy-0.7.zip") + bench.imageDigests("legacy-sdbl-0.5.zip"))
    }

    func testAPackageOfTheWrongKindIsRefusedBeforeAnythingIsSent() async throws {
        let bench = try await start()
        let run = try await SMPCtl.run(["upgrade", bench.package("secure-signed.zip"), "-c", bench.connection], timeout: 60)
        assertExit(run, 65)
        XCTAssertTrue(run.stderr.contains("runs a Nordic legacy DFU bootloader (nRF5 SDK 11 or older); the package is for Nordic Secure DFU"), run.stderr)
        let statistics = await bench.server.target.statistics
        XCTAssertEqual(statistics.requests.values.reduce(0, +), 0, "the bootloader was asked nothing")

        // The other way round: a legacy package for a Secure DFU bootloader.
        let link = (NSTemporaryDirectory() as NSString).appendingPathComponent("smpctl-\(getpid())-\(UUID().uuidString.prefix(8))-sdfu")
        let secure = SecureDFUPTYServer(target: SecureDFUTarget(configuration: SecureDFUValidation().configuration()), linkPath: link)
        let path = try await secure.start()
        addTeardownBlock { await secure.stop() }
        let legacy = try await SMPCtl.run(["upgrade", bench.package("legacy-0.7.zip"), "-c", "serial:\(path)"], timeout: 60)
        assertExit(legacy, 65)
        XCTAssertTrue(legacy.stderr.contains("runs a Nordic Secure DFU bootloader (nRF5 SDK 12–17); the package is for Nordic legacy DFU"), legacy.stderr)
        let secureStatistics = await secure.target.statistics
        XCTAssertEqual(secureStatistics.dataWrites + secureStatistics.commandBytesReceived, 0, "nothing sent")
    }

    /// `--bare`: an application without an init packet, as a `.bin` and as a `.hex` that Python's
    /// intelhex wrote, installs on an nRF5 SDK 6 bootloader; an SDK 11 one, which stores nothing
    /// without an init packet, is named as such (65); `--bare` with a package is a usage error.
    func testABareApplicationInstallsOnAnSDK6BootloaderAndAnSDK11OneAsksForAnInitPacket() async throws {
        try ExternalTool.requirePythonModules(["intelhex"])
        let firmware = BareApplication.firmware
        let files = try BareApplication.files(in: self)
        let old = try await start(version1: true)
        for file in [files.bin, files.hex] {
            let run = try await SMPCtl.run(["upgrade", file, "--bare", "--json", "-c", old.connection], timeout: 60)
            assertExit(run, 0)
            XCTAssertEqual(try jsonLines(run).first?["bootloader"]?.string, "Nordic legacy DFU")
        }
        let installed = await old.server.target.installed
        XCTAssertEqual(installed.map(\.firmware), [firmware, firmware])
        XCTAssertEqual(installed.map(\.initPacket), [[], []])

        let current = try await start()
        let refused = try await SMPCtl.run(["upgrade", files.bin, "--bare", "-c", current.connection], timeout: 60)
        assertExit(refused, 65)
        XCTAssertTrue(refused.stderr.contains(
            "app.bin is a bare application (no init packet), and the bootloader restarted after the image's first data packet"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("hint: a bare application goes to bootloaders of nRF5 SDK 6 and older only"), refused.stderr)
        let nothing = await current.server.target.installed
        XCTAssertEqual(nothing, [])

        let package = try await SMPCtl.run(["upgrade", current.package("legacy-0.7.zip"), "--bare", "-c", current.connection], timeout: 60)
        assertExit(package, 64)
        XCTAssertTrue(package.stderr.contains("--bare takes an application's .bin or .hex, and"), package.stderr)
    }

    func testARefusedInitPacketIsNamedByTheRestartThatFollows() async throws {
        let bench = try await start(softDevice: 0x81)
        let run = try await SMPCtl.run(["upgrade", bench.package("legacy-0.7.zip"), "-c", bench.connection], timeout: 60)
        assertExit(run, 2)
        XCTAssertTrue(run.stderr.contains("the bootloader restarted after the init packet (54 bytes) (it now expects sequence number 1): it refused it"), run.stderr)
        XCTAssertTrue(run.stderr.contains("required SoftDevice"), run.stderr)
        XCTAssertFalse(run.stderr.contains("run the same command again"), "a refusal is met again by a rerun\n\(run.stderr)")
        let refused = await bench.server.target.statistics.refusedInitPackets
        XCTAssertEqual(refused, 1)
    }

    func testLostAcknowledgementsAreRecoveredByResending() async throws {
        let bench = try await start(faults: .init(lostAcknowledgements: [2, 5]))
        let run = try await SMPCtl.run(["upgrade", bench.package("legacy-0.7.zip"), "-c", bench.connection + "?timeout=0.2"], timeout: 60)
        assertExit(run, 0)
        let link = await bench.server.link
        XCTAssertEqual(link.acknowledgementsLost, 2)
        XCTAssertGreaterThanOrEqual(link.packetsNotTaken, 2, "the resends were acknowledged without being taken twice")
        let installed = await bench.server.target.installed
        XCTAssertEqual(installed.map { digest($0.firmware) }, try bench.imageDigests("legacy-0.7.zip"))
    }

    func testCtrlCStopsAndTheSameCommandSendsTheImageAgainFromItsStart() async throws {
        let bench = try await start(faults: .init(dataPacketDelay: .milliseconds(3)))
        let arguments = ["upgrade", bench.package("legacy-large.zip"), "--json", "-c", bench.connection]
        let stderr = try await interruptedUpgrade(arguments, afterAcknowledgedDigits: 5)
        XCTAssertTrue(stderr.contains("upgrade interrupted during \"send the application large.bin"), stderr)
        XCTAssertTrue(stderr.contains("keeps nothing of an interrupted image: the same command sends it again from its start"), stderr)
        let before = await bench.server.target.installed.count
        XCTAssertEqual(before, 0, "nothing installed yet")

        let second = try await SMPCtl.run(arguments, timeout: 120)
        assertExit(second, 0)
        let done = try XCTUnwrap(try jsonLines(second).last)
        XCTAssertEqual(done["uploads"]?[0]?["bytesSent"]?.int, 1 << 18, "the whole image was sent again")
        let installed = await bench.server.target.installed
        XCTAssertEqual(installed.map { digest($0.firmware) }, try bench.imageDigests("legacy-large.zip"))
        let restarts = await bench.server.link.restarts
        XCTAssertGreaterThanOrEqual(restarts, 2, "the interrupted update was dropped by a restart, and the activation restarted it")
    }

    func testSimulateServesTheLegacySerialBootloader() async throws {
        let folder = try NordicDFUPackageSet.folder()
        let link = (NSTemporaryDirectory() as NSString).appendingPathComponent("smpctl-\(getpid())-\(UUID().uuidString.prefix(8))-sim")
        let simulator = try BackgroundProcess(
            smpctl: ["simulate", "--nordic-dfu", "--dfu-legacy", "--dfu-soft-device", "0x8C", "--serial-link", link, "--json", "--dfu-lose-writes", "0.4", "-v"])
        addTeardownBlock { simulator.stop() }
        let announcement = await simulator.waitForLine { $0.contains("\"listening\"") }
        XCTAssertTrue(announcement?.contains("\"device\":\"nordic-legacy-dfu\"") ?? false, "\(simulator.stdout)\n\(simulator.stderr)")
        let run = try await SMPCtl.run(["upgrade", folder.appendingPathComponent("legacy-0.7.zip").path, "-c", "serial:\(link)"], timeout: 60)
        assertExit(run, 0)
        XCTAssertTrue(run.stdout.contains("(Nordic legacy DFU)"), run.stdout)
        simulator.send(SIGINT)
        let status = await simulator.waitForExit()
        XCTAssertEqual(status, 0, simulator.stderr)
        // --dfu-lose-writes withholds acknowledgements (seeded): the upgrade above resent and got through.
        let lost = simulator.stderr.firstMatch(of: /acknowledgementsLost=(\d+)/).flatMap { Int($0.1) }
        XCTAssertGreaterThan(lost ?? 0, 0, simulator.stderr)

        // --dfu-sdk6: a bootloader that takes a bare application, as the announcement says.
        try ExternalTool.requirePythonModules(["intelhex"])
        let files = try BareApplication.files(in: self)
        let old = try BackgroundProcess(smpctl: ["simulate", "--nordic-dfu", "--dfu-legacy", "--dfu-sdk6", "--serial-link", link + "6"])
        addTeardownBlock { old.stop() }
        let text = await old.waitForLine { $0.hasPrefix("try:") }
        XCTAssertEqual(text, "try: smpctl -c serial:\(link)6 upgrade APP.bin --bare", "\(old.stdout)\n\(old.stderr)")
        assertExit(try await SMPCtl.run(["upgrade", files.bin, "--bare", "-c", "serial:\(link)6"], timeout: 60), 0)
    }
}
