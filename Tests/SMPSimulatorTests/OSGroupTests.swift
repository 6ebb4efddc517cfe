import CBOR
import SMP
import SMPSimulator
import XCTest

/// Echo, console echo, parameters, task and memory pool statistics, bootloader info (docs/protocol/os.md §3).
final class OSGroupTests: XCTestCase {
    func testEchoReadAndWrite() async throws {
        let device = VirtualDevice()
        let read = try await device.respond(to: TestFrames.request(.read, command: 0, payload: ["d": "ping"]))
        XCTAssertEqual(read.header.operation, .readResponse)
        XCTAssertEqual(read.payload, ["r": "ping"])
        let write = try await device.respond(to: TestFrames.request(.write, command: 0, payload: ["d": "ünïcødé ✓"]))
        XCTAssertEqual(write.header.operation, .writeResponse)
        XCTAssertEqual(write.payload, ["r": "ünïcødé ✓"])
    }

    func testEchoFieldRules() async throws {
        let device = VirtualDevice()
        let missing = try await device.respond(to: TestFrames.request(.write, command: 0, payload: ["x": 1]))
        XCTAssertEqual(missing.payload, ["r": ""])
        let extraKeys = try await device.respond(to: TestFrames.request(.write, command: 0, payload: ["x": 1, "d": "a", "y": [1, 2]]))
        XCTAssertEqual(extraKeys.payload, ["r": "a"])
        for bad: CBORMap in [["d": .bytes([0x61])], ["d": 5], ["d": nil], [.unsigned(1): "a"]] {
            let response = try await device.respond(to: TestFrames.request(.write, command: 0, payload: bad))
            XCTAssertEqual(response.payload, ["rc": 3], "\(CBOR.map(bad))")
        }
        var duplicate = CBORMap()
        duplicate.append(key: "d", value: "a")
        duplicate.append(key: "d", value: "b")
        let response = try await device.respond(to: TestFrames.request(.write, command: 0, payload: duplicate))
        XCTAssertEqual(response.payload, ["rc": 3])
    }

    func testParameters() async throws {
        let device = VirtualDevice(configuration: VirtualDeviceConfiguration(bufferSize: 1024, bufferCount: 3))
        let bytes = try await device.payloadBytes(of: TestFrames.request(.read, command: 6))
        XCTAssertEqual(bytes, TestFrames.hex("bf 68 62 75 66 5f 73 69 7a 65 19 04 00 69 62 75 66 5f 63 6f 75 6e 74 03 ff"))
        let response = try await device.respond(to: TestFrames.request(.read, command: 6))
        XCTAssertEqual(try OSParameters().decodeResponse(response.payload), MCUmgrParameters(bufferSize: 1024, bufferCount: 3))
    }

    func testTaskStatisticsInZephyrOrder() async throws {
        let device = VirtualDevice()
        let response = try await device.respond(to: TestFrames.request(.read, command: 2))
        let tasks = try OSTaskStatistics().decodeResponse(response.payload)
        XCTAssertEqual(tasks.map(\.name), SimulatedTask.zephyrDefaults.map(\.name))
        XCTAssertEqual(tasks.map(\.id), (0..<Int64(tasks.count)).map { $0 })
        let first = try XCTUnwrap(response.payload["tasks"]?.mapValue?.first?.value.mapValue)
        XCTAssertEqual(first.map { $0.key.stringValue ?? "" }, ["prio", "tid", "state", "stksiz", "stkuse", "runtime"])
        XCTAssertEqual(tasks.first { $0.name == "rx_q[0]" }?.priority, -1)
        XCTAssertNil(tasks[0].contextSwitches)
    }

    func testTaskStatisticsWithDuplicateNamesAndAllFields() async throws {
        let configuration = VirtualDeviceConfiguration(
            tasks: SimulatedTask.namedByPriority(SimulatedTask.zephyrDefaults), taskStatisticsAllFields: true)
        let device = VirtualDevice(configuration: configuration)
        let response = try await device.respond(to: TestFrames.request(.read, command: 2))
        let map = try XCTUnwrap(response.payload["tasks"]?.mapValue)
        XCTAssertEqual(map.duplicateKeys, ["-1"])
        let tasks = try OSTaskStatistics().decodeResponse(response.payload)
        XCTAssertEqual(tasks.count, SimulatedTask.zephyrDefaults.count)
        XCTAssertEqual(tasks.filter { $0.name == "-1" }.count, 3)
        XCTAssertEqual(tasks[0].contextSwitches, 0)
        XCTAssertEqual(tasks[0].nextCheckin, 0)
    }

    func testTaskWithoutStackFiguresOmitsThem() async throws {
        let device = VirtualDevice(configuration: VirtualDeviceConfiguration(tasks: [SimulatedTask(name: "main", priority: 0, state: 0)]))
        let response = try await device.respond(to: TestFrames.request(.read, command: 2))
        XCTAssertEqual(response.payload["tasks"], ["main": ["prio": 0, "tid": 0, "state": 0]])
    }

    func testMemoryPoolsMynewtStyle() async throws {
        let device = VirtualDevice(configuration: .mynewtLike)
        let response = try await device.respond(to: TestFrames.request(.read, command: 3))
        let pools = try OSMemoryPoolStatistics().decodeResponse(response.payload)
        XCTAssertEqual(pools.map(\.name), ["msys_1", "ble_hci_ev"])
        XCTAssertEqual(pools[0].blockSize, 292)
        XCTAssertEqual(pools[0].minimumFree, 7)
        XCTAssertEqual(response.payload["rc"], 0)
    }

    func testConsoleEchoMynewtStyle() async throws {
        let device = VirtualDevice(configuration: VirtualDeviceConfiguration(consoleEchoSupported: true))
        let off = try await device.respond(to: TestFrames.request(.write, command: 1, payload: ["echo": 0]))
        XCTAssertEqual(off.payload, [:])
        var state = await device.group(.os) as? OSGroup
        XCTAssertEqual(state?.consoleEcho, false)
        _ = try await device.respond(to: TestFrames.request(.write, command: 1, payload: ["echo": 1]))
        state = await device.group(.os) as? OSGroup
        XCTAssertEqual(state?.consoleEcho, true)
        let missing = try await device.respond(to: TestFrames.request(.write, command: 1))
        XCTAssertEqual(missing.payload, ["rc": 3])
        let wrongType = try await device.respond(to: TestFrames.request(.write, command: 1, payload: ["echo": true]))
        XCTAssertEqual(wrongType.payload, ["rc": 3])
    }

    func testBootloaderInfo() async throws {
        let device = VirtualDevice()
        let name = try await device.respond(to: TestFrames.request(.read, command: 8))
        XCTAssertEqual(name.payload, ["bootloader": "MCUboot"])
        let mode = try await device.respond(to: TestFrames.request(.read, command: 8, payload: ["query": "mode"]))
        XCTAssertEqual(mode.payload, ["mode": 3])
        let unknown = try await device.payloadBytes(of: TestFrames.request(.read, command: 8, payload: ["query": "active_b0_slot"]))
        XCTAssertEqual(unknown, TestFrames.hex("bf 63 65 72 72 bf 65 67 72 6f 75 70 00 62 72 63 03 ff ff"))
        let wrongType = try await device.respond(to: TestFrames.request(.read, command: 8, payload: ["query": 1]))
        XCTAssertEqual(wrongType.payload, ["rc": 3])
    }

    func testBootloaderModeWithNoDowngradeAndOtherNames() async throws {
        let configuration = VirtualDeviceConfiguration(bootloaderName: "SUIT", bootloaderMode: .unknown, noDowngrade: true)
        let device = VirtualDevice(configuration: configuration)
        let mode = try await device.respond(to: TestFrames.request(.read, command: 8, payload: ["query": "mode"]))
        XCTAssertEqual(mode.payload, ["mode": -1, "no-downgrade": true])
        let answer = try OSBootloaderMode().decodeResponse(mode.payload)
        XCTAssertEqual(answer.mode, .unknown)
        XCTAssertTrue(answer.noDowngrade)
        let name = try await device.respond(to: TestFrames.request(.read, command: 8))
        XCTAssertEqual(try OSBootloaderName().decodeResponse(name.payload), "SUIT")
    }
}

