import SMP
import SMPSimulator
import XCTest
@testable import smpctl

/// Every `smpctl os` subcommand against an in-process virtual device, as text and as `--json`.
final class OSCommandTests: XCTestCase {
    // MARK: echo

    func testEchoPrintsTheReplyAlone() async throws {
        let served = try await startDevice()
        let run = try await SMPCtl.run(["os", "echo", "grüße, 🌍", "-c", served.endpoint])
        assertSuccess(run)
        XCTAssertEqual(run.stdout, "grüße, 🌍\n")
        let requests = await served.requests
        XCTAssertEqual(requests, 1)
    }

    func testEchoWithoutTextSendsHello() async throws {
        let served = try await startDevice()
        let run = try await SMPCtl.run(["os", "echo", "-c", served.endpoint])
        assertSuccess(run)
        XCTAssertEqual(run.stdout, "hello\n")
    }

    func testEchoJSON() async throws {
        let served = try await startDevice()
        let run = try await SMPCtl.run(["os", "echo", "line\none \"quoted\"", "-c", served.endpoint, "--json"])
        assertSuccess(run)
        let document = try run.jsonDocument()
        XCTAssertEqual(document.keys, ["echo", "roundTripMilliseconds", "schemaVersion"])
        XCTAssertEqual(document["echo"]?.string, "line\none \"quoted\"")
        let roundTrip = try XCTUnwrap(document["roundTripMilliseconds"]?.double, "roundTripMilliseconds must be a number")
        XCTAssertGreaterThan(roundTrip, 0)
        XCTAssertLessThan(roundTrip, 10_000)
    }

    func testAWrongEchoIsAProtocolError() async throws {
        let served = try await startDevice(groups: [WrongEchoGroup()])
        let human = try await SMPCtl.run(["os", "echo", "ping", "-c", served.endpoint])
        assertExit(human, 76)
        assertStderr(human, contains: "error: the device echoed \"something else\" instead of \"ping\"")
        let json = try await SMPCtl.run(["os", "echo", "ping", "-c", served.endpoint, "--json"])
        try assertErrorDocument(json, name: "protocol-error", code: 76, messageContains: ["something else"])
    }

    // MARK: taskstat

    func testTaskStatTable() async throws {
        let served = try await startDevice()
        let run = try await SMPCtl.run(["os", "taskstat", "-c", served.endpoint])
        assertSuccess(run)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 1 + SimulatedTask.zephyrDefaults.count, run.description)
        XCTAssertEqual(lines.first?.split(separator: " ").map(String.init), ["TASK", "PRIO", "TID", "STATE", "STACK", "USED", "RUNTIME", "CSW"])
        for (line, task) in zip(lines.dropFirst(), SimulatedTask.zephyrDefaults) {
            XCTAssertTrue(line.hasPrefix(task.name + " "), "\(line) should list \(task.name)")
            let state = OSTaskStatCommand.zephyrState(Int64(task.state))
            XCTAssertTrue(line.contains(" \(state) "), "\(line): the state by Zephyr's name, \(state)")
            XCTAssertTrue(line.hasSuffix(" \(task.runtime ?? 0)    -"), "\(line): runtime, then - for the context switches not reported")
        }
    }

    /// Zephyr's names of a thread's state bits, joined as `k_thread_state_str` joins them.
    func testZephyrThreadStatesByName() {
        XCTAssertEqual(OSTaskStatCommand.zephyrState(0), "-")
        XCTAssertEqual(OSTaskStatCommand.zephyrState(2), "pending")
        XCTAssertEqual(OSTaskStatCommand.zephyrState(128), "queued")
        XCTAssertEqual(OSTaskStatCommand.zephyrState(0x14), "sleeping+suspended")
        XCTAssertEqual(OSTaskStatCommand.zephyrState(0x101), "dummy+0x100")
    }

    func testTaskStatJSONHasEveryFieldWithNullForWhatTheDeviceOmits() async throws {
        var configuration = VirtualDeviceConfiguration.zephyrForTests
        configuration.tasks = [
            SimulatedTask(name: "main", priority: -2, state: 0x80, stackSize: 512, stackUsed: 141, runtime: 22_458),
            SimulatedTask(name: "bare", priority: 7, state: 0x02),
        ]
        let served = try await startDevice(configuration)
        let run = try await SMPCtl.run(["os", "taskstat", "-c", served.endpoint, "--json"])
        assertSuccess(run)
        let document = try run.jsonDocument()
        XCTAssertEqual(document.keys, ["schemaVersion", "tasks"])
        let tasks = try XCTUnwrap(document["tasks"]?.array)
        XCTAssertEqual(tasks.count, 2)
        let fields = ["contextSwitches", "id", "lastCheckin", "name", "nextCheckin", "priority", "runtime", "stackSize", "stackUsed", "state"]
        XCTAssertEqual(tasks[0].keys, fields)
        XCTAssertEqual(tasks[1].keys, fields)
        XCTAssertEqual(tasks[0]["name"]?.string, "main")
        XCTAssertEqual(tasks[0]["priority"]?.int, -2)
        XCTAssertEqual(tasks[0]["id"]?.int, 0)
        XCTAssertEqual(tasks[0]["state"]?.int, 0x80)
        XCTAssertEqual(tasks[0]["stackSize"]?.int, 512)
        XCTAssertEqual(tasks[0]["stackUsed"]?.int, 141)
        XCTAssertEqual(tasks[0]["runtime"]?.int, 22_458)
        XCTAssertEqual(tasks[0]["contextSwitches"]?.isNull, true)
        XCTAssertEqual(tasks[1]["name"]?.string, "bare")
        XCTAssertEqual(tasks[1]["id"]?.int, 1)
        for field in ["stackSize", "stackUsed", "runtime", "contextSwitches", "lastCheckin", "nextCheckin"] {
            XCTAssertEqual(tasks[1][field]?.isNull, true, "\(field) should be null: \(tasks[1])")
        }
    }

    func testTaskStatOnAMynewtLikeDeviceReportsEveryCounter() async throws {
        let served = try await startDevice(.mynewtForTests)
        let run = try await SMPCtl.run(["os", "taskstat", "-c", served.endpoint, "--json"])
        assertSuccess(run)
        let first = try XCTUnwrap(try run.jsonDocument()["tasks"]?[0])
        XCTAssertEqual(first["contextSwitches"]?.int, 0)
        XCTAssertEqual(first["lastCheckin"]?.int, 0)
        XCTAssertEqual(first["nextCheckin"]?.int, 0)
    }

    func testTaskStatWithNoTasks() async throws {
        var configuration = VirtualDeviceConfiguration.zephyrForTests
        configuration.tasks = []
        let served = try await startDevice(configuration)
        let human = try await SMPCtl.run(["os", "taskstat", "-c", served.endpoint])
        assertSuccess(human)
        XCTAssertEqual(human.stdout, "no tasks\n")
        let json = try await SMPCtl.run(["os", "taskstat", "-c", served.endpoint, "--json"])
        assertSuccess(json)
        XCTAssertEqual(try json.jsonDocument()["tasks"]?.array?.count, 0)
    }

    // MARK: params

    func testParams() async throws {
        let served = try await startDevice(VirtualDeviceConfiguration(bufferSize: 1024, bufferCount: 6))
        let human = try await SMPCtl.run(["os", "params", "-c", served.endpoint])
        assertSuccess(human)
        XCTAssertEqual(human.stdout, "buffer size:        1024 bytes\nbuffer count:       6\nrequests in flight: 5\n")
        let json = try await SMPCtl.run(["os", "params", "-c", served.endpoint, "--json"])
        assertSuccess(json)
        let document = try json.jsonDocument()
        XCTAssertEqual(document.keys, ["bufferCount", "bufferSize", "requestsInFlight", "schemaVersion"])
        XCTAssertEqual(document["bufferSize"]?.int, 1024)
        XCTAssertEqual(document["bufferCount"]?.int, 6)
        XCTAssertEqual(document["requestsInFlight"]?.int, 5, "the text's figure too")
    }

    // MARK: info

    func testInfoShowsEverythingByDefault() async throws {
        let served = try await startDevice()
        let all = "Zephyr zephyr v4.1.0 4.1.0 2025-03-07T09:30:00 arm cortex-m33 virtual_smp_device Zephyr"
        let human = try await SMPCtl.run(["os", "info", "-c", served.endpoint])
        assertSuccess(human)
        XCTAssertEqual(human.stdout, all + "\n")
        let json = try await SMPCtl.run(["os", "info", "-c", served.endpoint, "--json"])
        assertSuccess(json)
        let document = try json.jsonDocument()
        XCTAssertEqual(document.keys, ["fields", "format", "output", "schemaVersion"])
        XCTAssertEqual(document["format"]?.string, "a")
        XCTAssertEqual(document["output"]?.string, all)
        // Each field on its own: the build date holds no space here, but one could.
        XCTAssertEqual(document["fields"]?["kernelName"]?.string, "Zephyr")
        XCTAssertEqual(document["fields"]?["buildDateTime"]?.string, "2025-03-07T09:30:00")
        XCTAssertEqual(document["fields"]?["hardwarePlatform"]?.string, "virtual_smp_device")
        XCTAssertEqual(document["fields"]?.keys?.count, 9)
    }

    func testInfoFormatSelectsFieldsInTheDevicesOrder() async throws {
        let served = try await startDevice()
        let human = try await SMPCtl.run(["os", "info", "--format", "ims", "-c", served.endpoint])
        assertSuccess(human)
        XCTAssertEqual(human.stdout, "Zephyr arm virtual_smp_device\n")
        let json = try await SMPCtl.run(["os", "info", "--format", "rn", "-c", served.endpoint, "--json"])
        assertSuccess(json)
        let document = try json.jsonDocument()
        XCTAssertEqual(document["format"]?.string, "rn")
        XCTAssertEqual(document["output"]?.string, "zephyr v4.1.0")
    }

    func testInfoWithAnInvalidFormatCharacterIsADeviceError() async throws {
        let served = try await startDevice()
        let human = try await SMPCtl.run(["os", "info", "--format", "sx", "-c", served.endpoint])
        assertExit(human, 2)
        XCTAssertEqual(human.stdout, "")
        assertStderr(human, contains: "error: ", "OS_MGMT_ERR_INVALID_FORMAT")

        let json = try await SMPCtl.run(["os", "info", "--format", "sx", "-c", served.endpoint, "--json"])
        let error = try assertErrorDocument(json, name: "device-error", code: 2, messageContains: ["OS_MGMT_ERR_INVALID_FORMAT"])
        let device = try XCTUnwrap(error["device"])
        XCTAssertEqual(device.keys, ["group", "rc", "rcName", "reason", "scope"])
        XCTAssertEqual(device["rcName"]?.string, "OS_MGMT_ERR_INVALID_FORMAT")
        XCTAssertEqual(device["group"]?.int, 0)
        XCTAssertEqual(device["rc"]?.int, 2)
    }

    // MARK: bootloader

    func testBootloaderDescribesMCUboot() async throws {
        let served = try await startDevice()
        let human = try await SMPCtl.run(["os", "bootloader", "-c", served.endpoint])
        assertSuccess(human)
        XCTAssertEqual(human.stdout, """
            bootloader: MCUboot
            mode:       swap-using-move (3): swap without scratch; test, confirm and revert supported
            downgrade:  allowed

            """)
        let json = try await SMPCtl.run(["os", "bootloader", "-c", served.endpoint, "--json"])
        assertSuccess(json)
        let document = try json.jsonDocument()
        XCTAssertEqual(document.keys, ["bootloader", "mode", "modeMeaning", "modeNumber", "noDowngrade", "schemaVersion"])
        XCTAssertEqual(document["bootloader"]?.string, "MCUboot")
        XCTAssertEqual(document["modeNumber"]?.int, 3)
        XCTAssertEqual(document["mode"]?.string, "swap-using-move")
        XCTAssertEqual(document["modeMeaning"]?.string, MCUbootMode.swapUsingMove.meaning)
        XCTAssertEqual(document["noDowngrade"]?.bool, false)
    }

    func testBootloaderReportsModeAndDowngradePrevention() async throws {
        let served = try await startDevice(VirtualDeviceConfiguration(bootloaderMode: .overwriteOnly, noDowngrade: true))
        let human = try await SMPCtl.run(["os", "bootloader", "-c", served.endpoint])
        assertSuccess(human)
        XCTAssertTrue(human.stdout.contains("mode:       overwrite-only (2): "), human.description)
        XCTAssertTrue(human.stdout.contains("downgrade:  refused (no-downgrade)"), human.description)
        let document = try await SMPCtl.run(["os", "bootloader", "-c", served.endpoint, "--json"]).jsonDocument()
        XCTAssertEqual(document["modeNumber"]?.int, 2)
        XCTAssertEqual(document["mode"]?.string, "overwrite-only")
        XCTAssertEqual(document["noDowngrade"]?.bool, true)
    }

    func testBootloaderOtherThanMCUbootHasOnlyItsName() async throws {
        let served = try await startDevice(VirtualDeviceConfiguration(bootloaderName: "SUIT"))
        let human = try await SMPCtl.run(["os", "bootloader", "-c", served.endpoint])
        assertSuccess(human)
        XCTAssertEqual(human.stdout, "bootloader: SUIT\n")
        let json = try await SMPCtl.run(["os", "bootloader", "-c", served.endpoint, "--json"])
        assertSuccess(json)
        let document = try json.jsonDocument()
        XCTAssertEqual(document.keys, ["bootloader", "schemaVersion"])
        XCTAssertEqual(document["bootloader"]?.string, "SUIT")
        let requests = await served.requests
        XCTAssertEqual(requests, 2, "no mode query for a bootloader other than MCUboot")
    }

    func testBootloaderQuery() async throws {
        let served = try await startDevice(VirtualDeviceConfiguration(noDowngrade: true))
        let human = try await SMPCtl.run(["os", "bootloader", "--query", "mode", "-c", served.endpoint])
        assertSuccess(human)
        XCTAssertEqual(human.stdout, "mode:         3\nno-downgrade: true\n")
        let json = try await SMPCtl.run(["os", "bootloader", "--query", "mode", "-c", served.endpoint, "--json"])
        assertSuccess(json)
        let document = try json.jsonDocument()
        XCTAssertEqual(document.keys, ["answer", "query", "schemaVersion"])
        XCTAssertEqual(document["query"]?.string, "mode")
        XCTAssertEqual(document["answer"]?.keys, ["mode", "no-downgrade"])
        XCTAssertEqual(document["answer"]?["mode"]?.int, 3)
        XCTAssertEqual(document["answer"]?["no-downgrade"]?.bool, true)
    }

    func testBootloaderQueryWithoutAnAnswerIsADeviceError() async throws {
        let served = try await startDevice()
        let run = try await SMPCtl.run(["os", "bootloader", "--query", "active_b0_slot", "-c", served.endpoint, "--json"])
        let error = try assertErrorDocument(run, name: "device-error", code: 2, messageContains: ["OS_MGMT_ERR_QUERY_YIELDS_NO_ANSWER"])
        XCTAssertEqual(error["device"]?["rcName"]?.string, "OS_MGMT_ERR_QUERY_YIELDS_NO_ANSWER")
        XCTAssertEqual(error["device"]?["rc"]?.int, 3)
    }

    // MARK: datetime (read)

    func testDateTimeRead() async throws {
        // The device's uptime stands still, so its clock stays at 12:30:00.000; the device prints
        // milliseconds, the tool pads them to three digits.
        let served = try await startDevice(uptime: { .zero })
        let human = try await SMPCtl.run(["os", "datetime", "-c", served.endpoint])
        assertSuccess(human)
        XCTAssertEqual(human.stdout, "2024-05-01T12:30:00.000\n", human.description)
        let json = try await SMPCtl.run(["os", "datetime", "-c", served.endpoint, "--json"])
        assertSuccess(json)
        let document = try json.jsonDocument()
        XCTAssertEqual(document.keys, ["datetime", "schemaVersion"])
        let text = try XCTUnwrap(document["datetime"]?.string)
        XCTAssertEqual(text, "2024-05-01T12:30:00.000")
        XCTAssertNotNil(SMPDateTime(iso8601: text), "\(text) is ISO 8601")
    }

    func testDateTimeReadOfAnUnsetClockIsADeviceError() async throws {
        let served = try await startDevice(VirtualDeviceConfiguration())
        let human = try await SMPCtl.run(["os", "datetime", "-c", served.endpoint])
        assertExit(human, 2)
        assertStderr(human, contains: "OS_MGMT_ERR_RTC_NOT_SET")
        let json = try await SMPCtl.run(["os", "datetime", "-c", served.endpoint, "--json"])
        let error = try assertErrorDocument(json, name: "device-error", code: 2, messageContains: ["OS_MGMT_ERR_RTC_NOT_SET"])
        XCTAssertEqual(error["device"]?["group"]?.int, 0)
        XCTAssertEqual(error["device"]?["rc"]?.int, 4)
    }
}
