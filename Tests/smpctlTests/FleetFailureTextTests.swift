import Foundation
import SMP
import SMPFleet
import SMPKit
import SMPSimulator
import XCTest
@testable import smpctl

/// What a many-device run says about its failures (issue 30): each thing once. The live line and
/// the summary's DETAIL take a few words; the whole error follows the table once, for every device
/// that failed alike, with its hint once; a hint's command names the device it is for. The
/// whole outputs are compared, times and paths replaced.
final class FleetFailureTextTests: XCTestCase {
    /// Devices without the image group, in a targets file with labels.
    private func rackWithoutImages(_ count: Int) async throws -> String {
        var configuration = VirtualDeviceConfiguration.zephyrForTests
        configuration.images = nil
        var endpoints: [String] = []
        for _ in 0..<count { endpoints.append(try await startDevice(configuration).endpoint) }
        return try targetsFile(endpoints, labels: (1...count).map { "bay-\($0)" })
    }

    /// The text with its times (`0.01s`) and `replacing`'s keys made fixed.
    private func normalized(_ text: String, replacing: [String: String] = [:]) -> String {
        var text = text.replacing(/\d+\.\d\ds/, with: "0.00s")
        for (variable, placeholder) in replacing { text = text.replacing(variable, with: placeholder) }
        return text
    }

    func testOneDeviceWithoutTheGroupIsToldWhatHappenedOnceAndWhatToDo() async throws {
        var configuration = VirtualDeviceConfiguration.zephyrForTests
        configuration.images = nil
        let served = try await startDevice(configuration)
        let run = try await SMPCtl.run(["image", "list", "-c", served.endpoint])
        assertExit(run, 2)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(run.stderr, """
            error: image state (group 1 command 0 read): the device answered MGMT_ERR_ENOTSUP (8): not supported: the device does not implement this group or command
            hint: it is probably not compiled in: check the firmware's Kconfig (CONFIG_MCUMGR_GRP_IMG)

            """)
    }

    func testDevicesThatFailAlikeAreNamedOnceWithTheErrorOnceAndTheTableStaysNarrow() async throws {
        let targets = try await rackWithoutImages(5)
        let run = try await SMPCtl.run(["image", "list", "--targets", targets, "--jobs", "1", "--progress", "plain"])
        assertExit(run, 2)
        XCTAssertEqual(normalized(run.stdout), """
            DEVICE  RESULT   TIME  RETRIES  DETAIL
            bay-1   failed  0.00s        0  MGMT_ERR_ENOTSUP
            bay-2   failed  0.00s        0  MGMT_ERR_ENOTSUP
            bay-3   failed  0.00s        0  MGMT_ERR_ENOTSUP
            bay-4   failed  0.00s        0  MGMT_ERR_ENOTSUP
            bay-5   failed  0.00s        0  MGMT_ERR_ENOTSUP
            5 devices in 0.00s: 5 failed

            """)
        let events = (1...5).map { "bay-\($0): connect\nbay-\($0): image list\nbay-\($0): FAILED after 0.00s: MGMT_ERR_ENOTSUP\n" }
        XCTAssertEqual(normalized(run.stderr, replacing: [targets: "TARGETS"]), events.joined() + """
            error: bay-1, bay-2, bay-3 and 2 more devices: image state (group 1 command 0 read): the device answered MGMT_ERR_ENOTSUP (8): not supported: the device does not implement this group or command
            hint: it is probably not compiled in: check the firmware's Kconfig (CONFIG_MCUMGR_GRP_IMG)
            next: run the same command again to retry the devices left: smpctl image list --targets TARGETS --jobs 1 --progress plain

            """)
    }

    func testDifferentFailuresWithOneHintShareIt() async throws {
        let targets = try targetsFile(["udp:127.0.0.1:9", "udp:127.0.0.1:19"], labels: ["bay-1", "bay-2"])
        let run = try await SMPCtl.run(["os", "echo", "x", "--targets", targets, "--jobs", "1", "-q", "--timeout", "0.3", "--retries", "0"])
        assertExit(run, 69)
        XCTAssertEqual(normalized(run.stdout), """
            DEVICE  RESULT   TIME  RETRIES  DETAIL
            bay-1   failed  0.00s        0  not reachable
            bay-2   failed  0.00s        0  not reachable
            2 devices in 0.00s: 2 failed

            """)
        XCTAssertEqual(normalized(run.stderr, replacing: [targets: "TARGETS"]), """
            error: bay-1: udp:127.0.0.1:9: nothing is listening there (connection refused)
            error: bay-2: udp:127.0.0.1:19: nothing is listening there (connection refused)
            hint: check the address and port, and that the device runs an SMP UDP server (CONFIG_MCUMGR_TRANSPORT_UDP)
            next: run the same command again to retry the devices left: smpctl os echo x --targets TARGETS --jobs 1 -q --timeout 0.3 --retries 0

            """)
    }

    /// An upgrade whose device goes silent mid-upload: the `next:` line says to run the command
    /// again, so the hint that says only that is left out.
    func testTheNextLineIsTheOnlyAdviceToRunAgain() async throws {
        let app = try UpgradeFiles.file("app-v2")
        var endpoints: [String] = []
        for faults in [[], [DeviceFault.dieMidUpload(fraction: 0.5)]] {
            let server = UDPSimulatorServer(
                device: VirtualDevice(configuration: UpgradeFiles.device(resetDelay: .zero), deviceFaults: faults), host: "127.0.0.1", port: 0)
            try await server.start()
            addTeardownBlock { await server.stop() }
            let endpoint = await server.endpoint
            endpoints.append(try XCTUnwrap(endpoint))
        }
        let targets = try targetsFile(endpoints, labels: ["bay-1", "bay-2"])
        let run = try await SMPCtl.run(["upgrade", app.path, "--targets", targets, "--timeout", "0.3", "--retries", "0", "-q"], timeout: 60)
        assertExit(run, 3)
        XCTAssertEqual(normalized(run.stdout), """
            DEVICE  RESULT      TIME  RETRIES  BEFORE  AFTER  DETAIL
            bay-1   succeeded  0.00s        0  1.0.0   2.0.0
            bay-2   failed     0.00s        0  1.0.0   -      no answer in time
            2 devices in 0.00s: 1 succeeded, 1 failed

            """)
        let file = URL(fileURLWithPath: app.path).lastPathComponent
        XCTAssertEqual(normalized(run.stderr, replacing: [targets: "TARGETS", app.path: "APP"]), """
            error: bay-2: upgrade failed at step "upload image 0 (\(file), 2.0.0+0, \(app.size) bytes)": image upload (group 1 command 1 write): no response within 300 ms
            next: run the same command again to retry the devices left (devices already running the new image are skipped): smpctl upgrade APP --targets TARGETS --timeout 0.3 --retries 0 -q

            """)
    }

    /// Two devices in MCUboot's serial recovery, asked for what only an application has: the
    /// error and the hint once for both, then each device's command with its own `-c`, which
    /// works when pasted.
    func testAHintsCommandInARunNamesEachDevice() async throws {
        var configuration = UpgradeFiles.device()
        configuration.recovery = MCUbootRecoveryConfiguration()
        configuration.startsInRecovery = true
        let endpoints = [try await startDevice(configuration).endpoint, try await startDevice(configuration).endpoint]
        let names = endpoints.map { $0.replacing("udp:", with: "") }
        let both = "udp:" + names.joined(separator: ",")
        let run = try await SMPCtl.run(["stat", "list", "-c", both, "-q"])
        assertExit(run, 2)
        XCTAssertEqual(normalized(run.stderr, replacing: [both: "BOTH"]), """
            error: \(names[0]), \(names[1]): stat list (group 2 command 1 read): MCUboot's serial recovery answered MGMT_ERR_ENOTSUP (8): it does not have this command
            hint: MCUboot's serial recovery answers, and it has no such command (it lists and uploads images and resets; with options it also echoes, reports parameters, marks images, shows slot info and erases storage): reset into the application with `smpctl os reset` to use it
                  \(names[0]): smpctl -c \(endpoints[0]) os reset
                  \(names[1]): smpctl -c \(endpoints[1]) os reset
            next: run the same command again to retry the devices left: smpctl stat list -c BOTH -q

            """)
    }

    /// A hint's command for a device names the device's own connection; one that reaches no
    /// device (`smpctl ports`) is left as it is.
    func testAHintsCommandNamesTheDevice() throws {
        let target = DeviceTarget(name: "bay-1", connection: try ConnectionString(parsing: "udp:127.0.0.1:14000"))
        let failure = CLIError(.timeout, "no response", hint: "run `smpctl image list` to see the device's state; `smpctl ports` lists them")
        XCTAssertEqual(
            failure.addressed(to: target).hint,
            "run `smpctl -c udp:127.0.0.1:14000 image list` to see the device's state; `smpctl ports` lists them")
        let named = CLIError(.timeout, "no response", hint: "run `smpctl -c udp:127.0.0.1:14000 os info`")
        XCTAssertEqual(named.addressed(to: target).hint, named.hint, "a command that names its device already")
    }
}
