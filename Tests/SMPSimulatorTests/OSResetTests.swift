import CBOR
import SMP
import SMPSimulator
import XCTest

/// Reset: answer first, then the reset event; the hook; boot mode (docs/protocol/os.md §3.6).
final class OSResetTests: XCTestCase {
    func testResetAnswersEmptyMapThenResets() async throws {
        let device = VirtualDevice()
        var events = device.resets.makeAsyncIterator()
        let bytes = try await device.payloadBytes(of: TestFrames.request(.write, command: 5))
        XCTAssertEqual(bytes, [0xBF, 0xFF])
        let count = await device.resetCount
        XCTAssertEqual(count, 1)
        let event = await events.next()
        XCTAssertEqual(event, SimulatedReset(number: 1, force: false, bootMode: nil, delay: .milliseconds(250)))
    }

    func testForceAndBootModeAreReported() async throws {
        let device = VirtualDevice()
        var events = device.resets.makeAsyncIterator()
        _ = try await device.respond(to: TestFrames.request(.write, command: 5, payload: ["force": true, "boot_mode": 1]))
        let event = await events.next()
        XCTAssertEqual(event?.force, true)
        XCTAssertEqual(event?.bootMode, 1)
    }

    func testUndecodablePayloadFallsBackToDefaults() async throws {
        let device = VirtualDevice()
        for payload: CBORMap in [["force": 1], ["boot_mode": "x"], ["boot_mode": -1]] {
            let response = try await device.respond(to: TestFrames.request(.write, command: 5, payload: payload))
            XCTAssertEqual(response.payload, [:], "\(CBOR.map(payload))")
        }
        let garbage = try await device.respond(to: TestFrames.raw(byte0: 0x0A, command: 5, payload: [0xFF]))
        XCTAssertEqual(garbage.payload, [:])
        let count = await device.resetCount
        XCTAssertEqual(count, 4)
    }

    func testBootModeAboveByteIsInvalid() async throws {
        let device = VirtualDevice()
        let response = try await device.respond(to: TestFrames.request(.write, command: 5, payload: ["boot_mode": 256]))
        XCTAssertEqual(response.payload, ["rc": 3])
        let count = await device.resetCount
        XCTAssertEqual(count, 0)
    }

    func testHookRefusesUnlessForced() async throws {
        let configuration = VirtualDeviceConfiguration(resetHook: .refuseUnlessForced(.returnCode(.busy)))
        let device = VirtualDevice(configuration: configuration)
        let refused = try await device.respond(to: TestFrames.request(.write, command: 5))
        XCTAssertEqual(refused.payload, ["rc": 10])
        let intForce = try await device.respond(to: TestFrames.request(.write, command: 5, payload: ["force": 1]))
        XCTAssertEqual(intForce.payload, ["rc": 10])
        var count = await device.resetCount
        XCTAssertEqual(count, 0)
        let forced = try await device.respond(to: TestFrames.request(.write, command: 5, payload: ["force": true]))
        XCTAssertEqual(forced.payload, [:])
        count = await device.resetCount
        XCTAssertEqual(count, 1)
    }

    func testHookGroupErrorIsReportedPerVersion() async throws {
        let configuration = VirtualDeviceConfiguration(resetHook: .refuse(.groupError(OSGroupError.unknown)))
        let device = VirtualDevice(configuration: configuration)
        let v2 = try await device.respond(to: TestFrames.request(.write, command: 5, payload: ["force": true]))
        XCTAssertEqual(v2.payload, ["err": ["group": 0, "rc": 1]])
        let v1 = try await device.respond(to: TestFrames.request(.write, command: 5, versionBits: 0))
        XCTAssertEqual(v1.payload, ["rc": 1])
        let count = await device.resetCount
        XCTAssertEqual(count, 0)
    }

    func testGroupsHearAboutResets() async throws {
        struct Boots: SimulatedGroup {
            var boots = 0
            var group: SMPGroup { SMPGroup(rawValue: 70) }
            func implements(command: UInt8) -> Bool { false }
            mutating func handle(_ request: SimulatedRequest, context: inout SimulatedDeviceContext) throws(SimulatedError) -> CBORMap {
                throw .notSupported
            }
            mutating func deviceDidReset(context: SimulatedDeviceContext) { boots += 1 }
        }
        let device = VirtualDevice(configuration: VirtualDeviceConfiguration(resetDelay: .zero), groups: [Boots()])
        _ = await device.handle(frame: TestFrames.request(.write, command: 5) + TestFrames.request(.write, command: 5))
        let boots = await device.group(SMPGroup(rawValue: 70)) as? Boots
        XCTAssertEqual(boots?.boots, 2)
    }
}
