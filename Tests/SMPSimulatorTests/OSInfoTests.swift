import CBOR
import SMP
import SMPSimulator
import XCTest

/// OS/application info format rules (docs/protocol/os.md §3.8).
final class OSInfoTests: XCTestCase {
    private func info(_ format: CBOR?, device: VirtualDevice = VirtualDevice()) async throws -> CBORMap {
        let payload: CBORMap = format.map { ["format": $0] } ?? [:]
        return try await device.respond(to: TestFrames.request(.read, command: 7, payload: payload)).payload
    }

    func testNoOrEmptyFormatIsKernelName() async throws {
        let none = try await info(nil)
        XCTAssertEqual(none, ["output": "Zephyr"])
        let empty = try await info("")
        XCTAssertEqual(empty, ["output": "Zephyr"])
    }

    func testFieldsComeInFixedOrder() async throws {
        let reversed = try await info("oipmbvrns")
        XCTAssertEqual(reversed, ["output": "Zephyr zephyr v4.1.0 4.1.0 2025-03-07T09:30:00 arm cortex-m33 virtual_smp_device Zephyr"])
        let some = try await info("pmsm")
        XCTAssertEqual(some, ["output": "Zephyr arm cortex-m33"])
        let all = try await info("a")
        XCTAssertEqual(all, reversed)
        let allAndMore = try await info("sa")
        XCTAssertEqual(allAndMore, reversed)
    }

    func testUnknownCharacterIsInvalidFormat() async throws {
        for format in ["x", "sx", " ", "S", "é"] {
            let response = try await info(.text(format))
            XCTAssertEqual(response, ["err": ["group": 0, "rc": 2]], "format \(format)")
        }
        let wrongType = try await info(5)
        XCTAssertEqual(wrongType, ["rc": 3])
    }

    func testBuildDateIsInvalidWithoutTheOption() async throws {
        var identity = SimulatedIdentity()
        identity.buildDate = nil
        let device = VirtualDevice(configuration: VirtualDeviceConfiguration(identity: identity))
        let b = try await info("b", device: device)
        XCTAssertEqual(b, ["err": ["group": 0, "rc": 2]])
        let all = try await info("a", device: device)
        XCTAssertEqual(all, ["output": "Zephyr zephyr v4.1.0 4.1.0 arm cortex-m33 virtual_smp_device Zephyr"])
    }

    func testOutputLongerThanBufferIsMessageTooLarge() async throws {
        var identity = SimulatedIdentity()
        identity.kernelName = String(repeating: "k", count: 255)
        let device = VirtualDevice(configuration: VirtualDeviceConfiguration(identity: identity))
        let fits = try await info("s", device: device)
        XCTAssertEqual(fits["output"]?.stringValue?.count, 255)
        let tooLong = try await info("sm", device: device)
        XCTAssertEqual(tooLong, ["rc": 7])
    }

    func testInvalidFormatInVersionOneIsTranslated() async throws {
        let device = VirtualDevice()
        let response = try await device.respond(to: TestFrames.request(.read, command: 7, versionBits: 0, payload: ["format": "q"]))
        XCTAssertEqual(response.payload, ["rc": 3])
        XCTAssertEqual(response.header.versionBits, 0)
    }
}
