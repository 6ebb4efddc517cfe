import SMP
import SMPSimulator
import XCTest

/// `smpctl os reset`: force, boot mode, a refusing application, and input checked before sending.
final class OSResetCommandTests: XCTestCase {
    func testResetIsSentOnceAndPerformed() async throws {
        let served = try await startDevice()
        let run = try await SMPCtl.run(["os", "reset", "-c", served.endpoint])
        assertSuccess(run)
        XCTAssertEqual(run.stdout, "reset requested; the device restarts in a moment\n")
        let resets = await served.resets()
        XCTAssertEqual(resets.count, 1)
        XCTAssertEqual(resets.first?.force, false)
        XCTAssertNil(resets.first?.bootMode)
        let requests = await served.requests
        XCTAssertEqual(requests, 1)
    }

    func testResetJSONWithoutOptions() async throws {
        let served = try await startDevice()
        let run = try await SMPCtl.run(["os", "reset", "-c", served.endpoint, "--json"])
        assertSuccess(run)
        let document = try run.jsonDocument()
        XCTAssertEqual(document.keys, ["bootMode", "force", "reset", "schemaVersion"])
        XCTAssertEqual(document["reset"]?.bool, true)
        XCTAssertEqual(document["force"]?.bool, false)
        XCTAssertEqual(document["bootMode"]?.isNull, true)
    }

    func testForceAndBootModeReachTheDevice() async throws {
        let served = try await startDevice()
        let run = try await SMPCtl.run(["os", "reset", "--force", "--boot-mode", "bootloader", "-c", served.endpoint, "--json"])
        assertSuccess(run)
        let document = try run.jsonDocument()
        XCTAssertEqual(document["reset"]?.bool, true)
        XCTAssertEqual(document["force"]?.bool, true)
        XCTAssertEqual(document["bootMode"]?.string, "bootloader")
        let resets = await served.resets()
        XCTAssertEqual(resets.map(\.force), [true])
        XCTAssertEqual(resets.map(\.bootMode), [1])
    }

    func testBootModeByNameAndNumber() async throws {
        let served = try await startDevice()
        for (argument, mode, name) in [("normal", UInt8(0), "normal"), ("BOOTLOADER", 1, "bootloader"), ("7", 7, "7"), ("255", 255, "255")] {
            let run = try await SMPCtl.run(["os", "reset", "--boot-mode", argument, "-c", served.endpoint, "--json"])
            assertSuccess(run)
            XCTAssertEqual(try run.jsonDocument()["bootMode"]?.string, name, "\(argument) → \(mode)")
        }
        let resets = await served.resets()
        XCTAssertEqual(resets.map(\.bootMode), [0, 1, 7, 255])
        XCTAssertEqual(resets.map(\.force), [false, false, false, false])
    }

    func testAnInvalidBootModeIsADataErrorAndNothingIsSent() async throws {
        let served = try await startDevice()
        for argument in ["sideways", "256", "-1", "1.5"] {
            let human = try await SMPCtl.run(["os", "reset", "--boot-mode=\(argument)", "-c", served.endpoint])
            assertExit(human, 65)
            XCTAssertEqual(human.stdout, "")
            assertStderr(human, contains: "--boot-mode \(argument) is not normal, bootloader or a number from 0 to 255")
            let json = try await SMPCtl.run(["os", "reset", "--boot-mode=\(argument)", "-c", served.endpoint, "--json"])
            try assertErrorDocument(json, name: "data-error", code: 65, messageContains: ["--boot-mode \(argument)"])
        }
        let frames = await served.frames
        XCTAssertEqual(frames, 0)
    }

    func testARefusingDeviceAnswersBusyUnlessForced() async throws {
        var configuration = VirtualDeviceConfiguration.zephyrForTests
        configuration.resetHook = .refuseUnlessForced(.returnCode(.busy))
        let served = try await startDevice(configuration)

        let human = try await SMPCtl.run(["os", "reset", "-c", served.endpoint])
        assertExit(human, 2)
        XCTAssertEqual(human.stdout, "")
        assertStderr(human, contains: "error: ", "MGMT_ERR_EBUSY")

        let json = try await SMPCtl.run(["os", "reset", "-c", served.endpoint, "--json"])
        let error = try assertErrorDocument(json, name: "device-error", code: 2, messageContains: ["MGMT_ERR_EBUSY"])
        let device = try XCTUnwrap(error["device"])
        XCTAssertEqual(device.keys, ["group", "rc", "rcName", "reason", "scope"])
        XCTAssertEqual(device["rcName"]?.string, "MGMT_ERR_EBUSY")
        XCTAssertEqual(device["rc"]?.int, 10)
        XCTAssertEqual(device["reason"]?.isNull, true)

        let count = await served.device.resetCount
        XCTAssertEqual(count, 0, "a refused reset is not performed")

        let forced = try await SMPCtl.run(["os", "reset", "--force", "-c", served.endpoint])
        assertSuccess(forced)
        let resets = await served.resets()
        XCTAssertEqual(resets.map(\.force), [true])
    }

    func testADeviceThatAlwaysRefusesRefusesEvenForced() async throws {
        var configuration = VirtualDeviceConfiguration.zephyrForTests
        configuration.resetHook = .refuse(.returnCode(.busy))
        let served = try await startDevice(configuration)
        let run = try await SMPCtl.run(["os", "reset", "--force", "-c", served.endpoint])
        assertExit(run, 2)
        assertStderr(run, contains: "MGMT_ERR_EBUSY")
        let count = await served.device.resetCount
        XCTAssertEqual(count, 0)
    }
}
