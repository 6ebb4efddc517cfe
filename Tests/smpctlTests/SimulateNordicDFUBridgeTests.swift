import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `smpctl simulate --nordic-dfu --udp`: the Nordic DFU device for the BlueZ mock's bridge, its
/// announcement and the combinations of its options.
final class SimulateNordicDFUBridgeTests: XCTestCase {
    func testAnnouncesTheMockDeviceThatFitsAndStopsOnControlC() async throws {
        let (simulator, endpoint) = try await startSimulateProcess(["--nordic-dfu", "--dfu-legacy", "--dfu-buttonless", "legacy", "--json"])
        let document = try SMPCtlRun(arguments: [], status: 0, stdout: simulator.stdout, stderr: "", seconds: 0, timedOut: false).jsonDocument()
        XCTAssertEqual(document["listening"]?.string, endpoint)
        XCTAssertEqual(document["device"]?.string, "nordic-dfu-bridge")
        XCTAssertEqual(document["mockKind"]?.string, "buttonless-legacy")
        simulator.send(SIGINT)
        let status = await simulator.waitForExit(timeout: 5)
        XCTAssertEqual(status, 0, "stderr: \(simulator.stderr)")

        let (human, _) = try await startSimulateProcess(["--nordic-dfu", "--dfu-buttonless", "secure"])
        XCTAssertTrue(human.stdout.hasPrefix("virtual Nordic Secure DFU bootloader ("), human.stdout)
        XCTAssertTrue(human.stdout.contains("running an application with buttonless DFU (secure)"), human.stdout)
        XCTAssertTrue(human.stdout.contains("--dfu-device C0:FF:EE:00:00:01,Sensor,"), human.stdout)
        XCTAssertTrue(human.stdout.contains(",buttonless-secure "), human.stdout)
    }

    func testInconsistentOptionsAreUsageErrors() async throws {
        let cases: [([String], String)] = [
            (["--nordic-dfu", "--udp", "127.0.0.1:0", "--serial-link", "/tmp/smpctl-dfu-both"], "not both"),
            (["--nordic-dfu", "--dfu-buttonless", "secure", "--serial-link", "/tmp/smpctl-dfu-buttonless"], "give --udp HOST:PORT instead of --serial-link"),
            (["--dfu-legacy", "--udp", "127.0.0.1:0"], "add --nordic-dfu"),
            (["--dfu-buttonless", "secure"], "add --nordic-dfu"),
            (["--nordic-dfu", "--udp", "127.0.0.1:0", "--dfu-buttonless", "legacy"], "add --dfu-legacy"),
            (["--nordic-dfu", "--udp", "127.0.0.1:0", "--dfu-legacy", "--dfu-buttonless", "secure-bonded"], "use --dfu-buttonless legacy"),
            (["--nordic-dfu", "--udp", "127.0.0.1:0", "--dfu-legacy", "--dfu-disconnect-after", "100"], "--dfu-disconnect-after applies to the Secure"),
            (["--nordic-dfu", "--udp", "127.0.0.1:0", "--dfu-buttonless", "sideways"], "'secure', 'secure-bonded' or 'legacy'"),
            (["--nordic-dfu", "--udp", "127.0.0.1:0", "--count", "2"], "without --count"),
            (["--nordic-dfu", "--dfu-sdk6", "--serial-link", "/tmp/smpctl-dfu-sdk6"], "--dfu-sdk6 describes a legacy DFU bootloader: add --dfu-legacy"),
        ]
        for (options, message) in cases {
            let run = try await SMPCtl.run(["simulate"] + options, timeout: 10)
            assertExit(run, 64)
            XCTAssertEqual(run.stdout, "", "\(options)")
            assertStderr(run, contains: message)
        }
    }
}
