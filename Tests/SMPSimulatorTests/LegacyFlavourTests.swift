import CBOR
import SMP
import SMPSimulator
import XCTest

/// The legacy flavour: version 0 answers, `rc` everywhere, definite maps (docs/protocol/messages.md §1.3, docs/protocol/errors.md §1.7).
final class LegacyFlavourTests: XCTestCase {
    private let device = VirtualDevice(configuration: VirtualDeviceConfiguration(flavour: .legacy))

    func testSuccessCarriesRcZeroInDefiniteMap() async {
        let responses = await device.handle(frame: TestFrames.request(.write, command: 0, payload: ["d": "hi"]))
        XCTAssertEqual(responses, [TestFrames.hex("03 00 00 0a 00 00 07 00 a2 61 72 62 68 69 62 72 63 00")])
    }

    func testEveryVersionIsAnsweredAsVersionZero() async throws {
        for bits: UInt8 in [0, 1, 2, 3] {
            let response = try await device.respond(to: TestFrames.request(.read, command: 6, versionBits: bits))
            XCTAssertEqual(response.header.versionBits, 0)
            XCTAssertEqual(response.payload, ["buf_size": 2048, "buf_count": 4, "rc": 0])
        }
    }

    func testGroupErrorsAreTranslated() async throws {
        let rtc = try await device.payloadBytes(of: TestFrames.request(.read, command: 4))
        XCTAssertEqual(rtc, TestFrames.hex("a1 62 72 63 05"))
        let format = try await device.respond(to: TestFrames.request(.read, command: 7, payload: ["format": "?"]))
        XCTAssertEqual(format.payload, ["rc": 3])
        let query = try await device.respond(to: TestFrames.request(.read, command: 8, payload: ["query": "?"]))
        XCTAssertEqual(query.payload, ["rc": 5])
    }

    func testSMPErrorsAreDefiniteMaps() async throws {
        let unknown = try await device.payloadBytes(of: TestFrames.request(.read, command: 42))
        XCTAssertEqual(unknown, TestFrames.hex("a1 62 72 63 08"))
        var truncated = TestFrames.request(.write, command: 0, payload: ["d": "x"])
        truncated.removeLast()
        let corrupt = try await device.respond(to: truncated)
        XCTAssertEqual(corrupt.payload, ["rc": 9])
        XCTAssertEqual(corrupt.header.versionBits, 0)
    }

    func testEmptyAnswersCarryRcZero() async throws {
        let reset = try await device.respond(to: TestFrames.request(.write, command: 5))
        XCTAssertEqual(reset.payload, ["rc": 0])
        let set = try await device.respond(to: TestFrames.request(.write, command: 4, payload: ["datetime": "2024-01-01T00:00:00"]))
        XCTAssertEqual(set.payload, ["rc": 0])
    }

    func testClientReadsLegacyAnswers() async throws {
        let response = try await device.respond(to: TestFrames.request(.read, command: 8, payload: ["query": "mode"]))
        let answer = try OSBootloaderMode().decodeResponse(response.payload)
        XCTAssertEqual(answer.mode, .swapUsingMove)
        XCTAssertNil(SMPDeviceError(payload: response.payload, requestGroup: 0))
    }
}
