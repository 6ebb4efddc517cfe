import SMP
import SMPSimulator
import XCTest

/// `os mpstat` and `os console-echo`: Zephyr answers "not supported", a Mynewt-like device answers.
final class MynewtCommandTests: XCTestCase {
    private let notSupportedHint = "hint: it is probably not compiled in: check the firmware's Kconfig"

    func testMPStatOnZephyrIsNotSupported() async throws {
        let served = try await startDevice()
        let human = try await SMPCtl.run(["os", "mpstat", "-c", served.endpoint])
        assertExit(human, 2)
        XCTAssertEqual(human.stdout, "")
        XCTAssertEqual(
            human.stderr,
            "error: os memory pool statistics (group 0 command 3 read): the device answered MGMT_ERR_ENOTSUP (8): not supported: the device does not implement this group or command\n"
                + "\(notSupportedHint) (CONFIG_MCUMGR_GRP_OS and the command's own option (e.g. CONFIG_MCUMGR_GRP_OS_INFO, _DATETIME, _TASKSTAT, _MCUMGR_PARAMS, _BOOTLOADER_INFO))\n",
            "the error says what happened once, the hint only what to do")

        let json = try await SMPCtl.run(["os", "mpstat", "-c", served.endpoint, "--json"])
        let error = try assertErrorDocument(json, name: "device-error", code: 2, messageContains: ["MGMT_ERR_ENOTSUP"])
        XCTAssertTrue(error["hint"]?.string?.contains("probably not compiled in") ?? false, "\(error)")
        XCTAssertEqual(error["device"]?["rcName"]?.string, "MGMT_ERR_ENOTSUP")
        XCTAssertEqual(error["device"]?["rc"]?.int, 8)
    }

    func testConsoleEchoOnZephyrIsNotSupported() async throws {
        let served = try await startDevice()
        let human = try await SMPCtl.run(["os", "console-echo", "off", "-c", served.endpoint])
        assertExit(human, 2)
        XCTAssertEqual(human.stdout, "")
        assertStderr(human, contains: "MGMT_ERR_ENOTSUP", notSupportedHint)

        let json = try await SMPCtl.run(["os", "console-echo", "on", "-c", served.endpoint, "--json"])
        let error = try assertErrorDocument(json, name: "device-error", code: 2, messageContains: ["MGMT_ERR_ENOTSUP"])
        XCTAssertEqual(error["device"]?["rc"]?.int, 8)
        XCTAssertNotNil(error["hint"]?.string)
    }

    func testMPStatOnAMynewtLikeDevice() async throws {
        let served = try await startDevice(.mynewtForTests)
        let human = try await SMPCtl.run(["os", "mpstat", "-c", served.endpoint])
        assertSuccess(human)
        XCTAssertEqual(human.stdout, """
            POOL        BLOCK SIZE  BLOCKS  FREE  MIN FREE
            msys_1             292      12    10         7
            ble_hci_ev          70      16    16        14

            """)

        let json = try await SMPCtl.run(["os", "mpstat", "-c", served.endpoint, "--json"])
        assertSuccess(json)
        let document = try json.jsonDocument()
        XCTAssertEqual(document.keys, ["pools", "schemaVersion"])
        let pools = try XCTUnwrap(document["pools"]?.array)
        XCTAssertEqual(pools.count, SimulatedMemoryPool.mynewtDefaults.count)
        for (pool, expected) in zip(pools, SimulatedMemoryPool.mynewtDefaults) {
            XCTAssertEqual(pool.keys, ["blockSize", "blocks", "free", "minimumFree", "name"])
            XCTAssertEqual(pool["name"]?.string, expected.name)
            XCTAssertEqual(pool["blockSize"]?.int, Int(expected.blockSize))
            XCTAssertEqual(pool["blocks"]?.int, Int(expected.blocks))
            XCTAssertEqual(pool["free"]?.int, Int(expected.free))
            XCTAssertEqual(pool["minimumFree"]?.int, Int(expected.minimumFree))
        }
    }

    func testMPStatWithNoPools() async throws {
        var configuration = VirtualDeviceConfiguration.mynewtForTests
        configuration.memoryPools = []
        let served = try await startDevice(configuration)
        let human = try await SMPCtl.run(["os", "mpstat", "-c", served.endpoint])
        assertSuccess(human)
        XCTAssertEqual(human.stdout, "no memory pools\n")
        let json = try await SMPCtl.run(["os", "mpstat", "-c", served.endpoint, "--json"])
        XCTAssertEqual(try json.jsonDocument()["pools"]?.array?.count, 0)
    }

    func testConsoleEchoOnAMynewtLikeDeviceChangesItsState() async throws {
        let served = try await startDevice(.mynewtForTests)
        let initially = await served.osGroup?.consoleEcho
        XCTAssertEqual(initially, true)

        let off = try await SMPCtl.run(["os", "console-echo", "off", "-c", served.endpoint])
        assertSuccess(off)
        XCTAssertEqual(off.stdout, "console echo off\n")
        let afterOff = await served.osGroup?.consoleEcho
        XCTAssertEqual(afterOff, false)

        let on = try await SMPCtl.run(["os", "console-echo", "on", "-c", served.endpoint, "--json"])
        assertSuccess(on)
        let document = try on.jsonDocument()
        XCTAssertEqual(document.keys, ["consoleEcho", "schemaVersion"])
        XCTAssertEqual(document["consoleEcho"]?.bool, true)
        let afterOn = await served.osGroup?.consoleEcho
        XCTAssertEqual(afterOn, true)
    }

    func testConsoleEchoTakesOnlyOnOrOff() async throws {
        let run = try await SMPCtl.run(["os", "console-echo", "maybe", "-c", "udp:127.0.0.1"])
        assertExit(run, 64)
        assertStderr(run, contains: "maybe")
    }

    func testTheOtherCommandsWorkOverTheLegacyProtocol() async throws {
        let served = try await startDevice(.mynewtForTests, uptime: { .zero })
        let echo = try await SMPCtl.run(["os", "echo", "legacy", "-c", served.endpoint])
        assertSuccess(echo)
        XCTAssertEqual(echo.stdout, "legacy\n")
        let datetime = try await SMPCtl.run(["os", "datetime", "-c", served.endpoint])
        assertSuccess(datetime)
        XCTAssertTrue(datetime.stdout.hasPrefix("2024-05-01T12:30:00"), datetime.description)
    }
}
