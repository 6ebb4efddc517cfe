import Crypto
import Foundation
import SMPSimulator
import SMPTestSupport
import XCTest

/// `smpctl upgrade PACKAGE` with nRF5 SDK Nordic DFU packages (made by the independent encoder,
/// ``NordicDFUPackageSet``) against the virtual Secure DFU bootloader on a pseudo-terminal: the
/// same plan, steps, JSON lines, exit codes and "run it again" as an SMP upgrade.
final class NordicDFUUpgradeCommandTests: XCTestCase {
    private struct Bench {
        let server: SecureDFUPTYServer
        let connection: String
        let folder: URL

        func package(_ name: String) -> String { folder.appendingPathComponent(name).path }
    }

    /// A bootloader that wants packages signed with the set's key.
    private func start() async throws -> Bench {
        let folder = try NordicDFUPackageSet.folder()
        let pem = try String(contentsOf: folder.appendingPathComponent("public.pem"), encoding: .utf8)
        let validation = SecureDFUValidation(publicKey: try P256.Signing.PublicKey(pemRepresentation: pem))
        let link = (NSTemporaryDirectory() as NSString).appendingPathComponent("smpctl-\(getpid())-\(UUID().uuidString.prefix(8))-dfu")
        let server = SecureDFUPTYServer(target: SecureDFUTarget(configuration: validation.configuration()), linkPath: link)
        let path = try await server.start()
        addTeardownBlock { await server.stop() }
        return Bench(server: server, connection: "serial:\(path)", folder: folder)
    }

    func testAMultiImagePackageInstallsWithTheSameJSONLinesAsAnSMPUpgrade() async throws {
        let bench = try await start()
        let run = try await SMPCtl.run(["upgrade", bench.package("secure-multi.zip"), "--json", "-c", bench.connection], timeout: 60)
        assertExit(run, 0)
        let events = try jsonLines(run)
        XCTAssertEqual(events.first?["event"]?.string, "device")
        XCTAssertEqual(events.first?["bootloader"]?.string, "Nordic Secure DFU")
        XCTAssertEqual(events.first?["writeSize"]?.int, 64)
        XCTAssertEqual(startedSteps(events), ["upload", "wait", "upload"])
        let done = try XCTUnwrap(events.last)
        XCTAssertEqual(done["installed"]?.array?.compactMap(\.string), ["softdevice_bootloader", "application"])
        XCTAssertEqual(done["uploads"]?.array?.count, 2)
        let installed = await bench.server.target.installed.map(\.firmware.count)
        XCTAssertEqual(installed, [6000, 5003])
    }

    func testADryRunPrintsThePlanAndSendsNothing() async throws {
        let bench = try await start()
        let run = try await SMPCtl.run(["upgrade", bench.package("secure-signed.zip"), "--dry-run", "-c", bench.connection], timeout: 60)
        assertExit(run, 0)
        XCTAssertTrue(run.stdout.contains("plan (Nordic Secure DFU): 1 image"), run.stdout)
        XCTAssertTrue(run.stdout.contains("(dry run: nothing was changed)"), run.stdout)
        let statistics = await bench.server.target.statistics
        XCTAssertEqual(statistics.dataWrites + statistics.commandBytesReceived, 0, "nothing sent")
    }

    func testCtrlCStopsAndTheSameCommandContinuesWhereTheBootloaderStopped() async throws {
        let bench = try await start()
        let arguments = ["upgrade", bench.package("secure-large.zip"), "--json", "-c", bench.connection]
        let stderr = try await interruptedUpgrade(arguments, afterAcknowledgedDigits: 6)
        XCTAssertTrue(stderr.contains("upgrade interrupted during \"send the application large.bin"), stderr)
        XCTAssertTrue(stderr.contains("smpctl upgrade \(bench.package("secure-large.zip")) -c \(bench.connection)"), stderr)
        let before = await bench.server.target.installed.count
        XCTAssertEqual(before, 0, "nothing installed yet")

        let second = try await SMPCtl.run(arguments, timeout: 60)
        assertExit(second, 0)
        let done = try XCTUnwrap(try jsonLines(second).last)
        let resumedFrom = try XCTUnwrap(done["uploads"]?[0]?["resumedFrom"]?.int, "it continued\n\(second.stdout)")
        XCTAssertGreaterThanOrEqual(resumedFrom, 100_000)
        XCTAssertLessThan(try XCTUnwrap(done["uploads"]?[0]?["bytesSent"]?.int), 1 << 20, "only the rest was sent (and at most one object again)")
        let installed = await bench.server.target.installed.map(\.firmware.count)
        XCTAssertEqual(installed, [1 << 20])
    }

    func testWhatCannotBeSentIsRefusedBeforeAnythingIsSent() async throws {
        let bench = try await start()
        let cases: [(arguments: [String], status: Int32, message: String)] = [
            (["upgrade", bench.package("legacy-0.5.zip")], 65,
             "runs a Nordic Secure DFU bootloader (nRF5 SDK 12–17); the package is for Nordic legacy DFU (nRF5 SDK 11 or older)"),
            (["upgrade", bench.package("secure-signed.zip"), "--erase-settings", "--window", "2"], 64,
             "--erase-settings, --window do not apply to a Nordic DFU package"),
        ]
        for item in cases {
            let run = try await SMPCtl.run(item.arguments + ["-c", bench.connection], timeout: 60)
            assertExit(run, item.status)
            XCTAssertTrue(run.stderr.contains(item.message), run.stderr)
        }
        let udp = try await SMPCtl.run(["upgrade", bench.package("secure-signed.zip"), "-c", "udp:127.0.0.1:9"], timeout: 60)
        assertExit(udp, 69)
        XCTAssertTrue(udp.stderr.contains("Nordic DFU bootloaders are not reached over UDP"), udp.stderr)
        // The legacy package met the bootloader's ping and MTU answer (read only), nothing more.
        let statistics = await bench.server.target.statistics
        XCTAssertEqual(statistics.dataWrites + statistics.commandBytesReceived, 0, "nothing was sent")
        XCTAssertEqual(statistics.requests[.create] ?? 0, 0, "no object was created")
        let installed = await bench.server.target.installed.count
        XCTAssertEqual(installed, 0)
    }

    func testManyBootloadersAreUpgradedInOneRunAndEachIsReported() async throws {
        let first = try await start()
        let second = try await start()
        let targets = first.folder.appendingPathComponent("targets-\(UUID().uuidString.prefix(8)).txt")
        try "left \(first.connection)\nright \(second.connection)\nnowhere udp:127.0.0.1:9\n".write(to: targets, atomically: true, encoding: .utf8)
        let run = try await SMPCtl.run(["upgrade", first.package("secure-signed.zip"), "--targets", targets.path, "--json"], timeout: 120)
        assertExit(run, 3)
        let report = try XCTUnwrap(try jsonLines(run).last)
        XCTAssertEqual(report["event"]?.string, "report")
        let outcomes = Dictionary(uniqueKeysWithValues: (report["devices"]?.array ?? []).compactMap { device in
            device["name"]?.string.map { ($0, device["status"]?.string ?? "") }
        })
        XCTAssertEqual(outcomes, ["left": "succeeded", "right": "succeeded", "nowhere": "failed"], run.stdout)
        for bench in [first, second] {
            let installed = await bench.server.target.installed.map(\.firmware.count)
            XCTAssertEqual(installed, [5003])
        }
        let failure = report["devices"]?[2]?["error"]?["message"]?.string ?? ""
        XCTAssertTrue(failure.contains("Nordic DFU bootloaders are not reached over UDP"), failure)
        let planOnly = try await SMPCtl.run(["upgrade", first.package("secure-signed.zip"), "--targets", targets.path, "--dry-run"], timeout: 60)
        assertExit(planOnly, 64)
        XCTAssertTrue(planOnly.stderr.contains("--dry-run plans a Nordic DFU package for one device"), planOnly.stderr)
    }

    func testARefusalNamesTheBootloadersCheckAndItsHint() async throws {
        let bench = try await start()
        let run = try await SMPCtl.run(["upgrade", bench.package("secure-unsigned.zip"), "-c", bench.connection], timeout: 60)
        assertExit(run, 2)
        XCTAssertTrue(run.stderr.contains("the bootloader refused Execute of the command object at offset 65: signature missing (0x8)"), run.stderr)
        XCTAssertFalse(run.stderr.contains("run the same command again"), "a refusal is met again by a rerun\n\(run.stderr)")
        let installed = await bench.server.target.installed.count
        XCTAssertEqual(installed, 0)
    }
}
