import CBOR
import SMP
import SMPSimulator
import XCTest

/// How the device splits, checks and answers frames (docs/protocol/messages.md §1.3, §1.6), and its exact encodings.
final class VirtualDeviceFramingTests: XCTestCase {
    func testEchoAnswerIsZephyrEncodedExactly() async {
        let device = VirtualDevice()
        let responses = await device.handle(frame: TestFrames.request(.write, command: 0, payload: ["d": "hi"]))
        // op 3, version 1, len 7, group 0, seq 7, cmd 0; {_ "r": "hi"} as an indefinite map, no rc.
        XCTAssertEqual(responses, [TestFrames.hex("0b 00 00 07 00 00 07 00 bf 61 72 62 68 69 ff")])
    }

    func testVersionOneRequestGetsVersionZeroAnswer() async {
        let device = VirtualDevice()
        let responses = await device.handle(frame: TestFrames.request(.read, command: 0, versionBits: 0, payload: ["d": "x"]))
        XCTAssertEqual(responses, [TestFrames.hex("01 00 00 06 00 00 07 00 bf 61 72 61 78 ff")])
    }

    func testSeveralMessagesInOneFrameAreAnsweredInOrder() async throws {
        let device = VirtualDevice()
        let frame = TestFrames.request(.write, command: 0, sequence: 1, payload: ["d": "a"])
            + TestFrames.request(.read, command: 6, sequence: 2)
            + TestFrames.request(.read, command: 0, sequence: 3, payload: ["d": "c"])
        let responses = await device.handle(frame: frame)
        XCTAssertEqual(responses.count, 3)
        let messages = try responses.map { try TestFrames.decode($0) }
        XCTAssertEqual(messages.map(\.header.sequence), [1, 2, 3])
        XCTAssertEqual(messages.map(\.header.operation), [.writeResponse, .readResponse, .readResponse])
        XCTAssertEqual(messages[0].payload["r"], "a")
        XCTAssertEqual(messages[1].payload["buf_size"], 2048)
        XCTAssertEqual(messages[2].payload["r"], "c")
    }

    func testGroupErrorDoesNotStopTheFrame() async throws {
        let device = VirtualDevice()
        let frame = TestFrames.request(.read, command: 4, sequence: 1) + TestFrames.request(.write, command: 0, sequence: 2, payload: ["d": "z"])
        let responses = try await device.handle(frame: frame).map { try TestFrames.decode($0) }
        XCTAssertEqual(responses.count, 2)
        XCTAssertEqual(responses[0].payload["err"], ["group": 0, "rc": 4])
        XCTAssertEqual(responses[1].payload["r"], "z")
    }

    func testProcessingStopsAtFirstSMPError() async throws {
        let device = VirtualDevice()
        let frame = TestFrames.request(.write, command: 0, sequence: 1, payload: ["d": "ok"])
            + TestFrames.request(.read, group: SMPGroup(rawValue: 200), command: 0, sequence: 2)
            + TestFrames.request(.write, command: 0, sequence: 3, payload: ["d": "never"])
        let responses = try await device.handle(frame: frame).map { try TestFrames.decode($0) }
        XCTAssertEqual(responses.map(\.header.sequence), [1, 2])
        XCTAssertEqual(responses[1].payload, ["rc": 8])
        let statistics = await device.statistics
        XCTAssertEqual(statistics.errorResponses, 1)
    }

    func testDeclaredLengthBeyondFrameIsCorrupt() async throws {
        let device = VirtualDevice()
        var frame = TestFrames.request(.write, command: 0, sequence: 9, payload: ["d": "abc"])
        frame.removeLast()
        let responses = await device.handle(frame: frame)
        XCTAssertEqual(responses, [TestFrames.hex("0b 00 00 06 00 00 09 00 bf 62 72 63 09 ff")])
    }

    func testCorruptSecondMessageStillAnswersTheFirst() async throws {
        let device = VirtualDevice()
        let frame = TestFrames.request(.write, command: 0, sequence: 1, payload: ["d": "a"])
            + Array(TestFrames.raw(byte0: 0x0A, command: 0, sequence: 2, payload: [0xA0]).dropLast())
        let responses = try await device.handle(frame: frame).map { try TestFrames.decode($0) }
        XCTAssertEqual(responses.map(\.header.sequence), [1, 2])
        XCTAssertEqual(responses[1].payload, ["rc": 9])
    }

    func testTruncatedHeaderIsIgnoredSilently() async throws {
        let device = VirtualDevice()
        let alone = await device.handle(frame: [0x0A, 0x00, 0x00])
        XCTAssertEqual(alone, [])
        let frame = TestFrames.request(.write, command: 0, payload: ["d": "a"]) + [0x0A, 0x00, 0x00, 0x01]
        let responses = await device.handle(frame: frame)
        XCTAssertEqual(responses.count, 1)
        let empty = await device.handle(frame: [])
        XCTAssertEqual(empty, [])
    }

    func testVersionAboveTwoIsTooNew() async throws {
        let device = VirtualDevice()
        for bits: UInt8 in [2, 3] {
            let frame = TestFrames.request(.write, command: 0, versionBits: bits, payload: ["d": "a"])
                + TestFrames.request(.write, command: 0, payload: ["d": "b"])
            let responses = await device.handle(frame: frame)
            XCTAssertEqual(responses, [TestFrames.hex("0b 00 00 06 00 00 07 00 bf 62 72 63 0d ff")], "version bits \(bits)")
        }
    }

    func testPayloadThatIsNotAMapOrNotCBORIsInvalid() async throws {
        let device = VirtualDevice()
        for payload: [UInt8] in [[0x61, 0x64], [0xFF], [], [0xA1, 0x61], [0xBF, 0x61, 0x64, 0x61, 0x78], [0xA1, 0x01, 0x02]] {
            let response = try await device.respond(to: TestFrames.raw(byte0: 0x0A, command: 0, payload: payload))
            XCTAssertEqual(response.payload, ["rc": 3], "payload \(Hex.string(payload))")
            XCTAssertEqual(response.header.operation, .writeResponse)
        }
    }

    func testCommandsThatReadNoParametersIgnoreThePayload() async throws {
        // Zephyr's parameter handler never decodes the request, so a broken payload does not matter.
        let device = VirtualDevice()
        let response = try await device.respond(to: TestFrames.raw(byte0: 0x08, command: 6, payload: [0xFF]))
        XCTAssertEqual(response.payload["buf_count"], 4)
    }

    func testUnknownGroupCommandAndOperationAreNotSupported() async throws {
        let device = VirtualDevice()
        let cases: [[UInt8]] = [
            TestFrames.request(.read, group: .image, command: 0),
            TestFrames.request(.read, group: SMPGroup(rawValue: 0xFFFF), command: 0),
            TestFrames.request(.read, command: 9),
            TestFrames.request(.read, command: 200),
            TestFrames.request(.read, command: 5),  // reset is write only
            TestFrames.request(.write, command: 2),  // task statistics are read only
            TestFrames.request(.write, command: 6),
            TestFrames.request(.write, command: 7),
            TestFrames.request(.write, command: 8),
            TestFrames.request(.read, command: 1),  // console echo: not in Zephyr
            TestFrames.request(.write, command: 1, payload: ["echo": 1]),
            TestFrames.request(.read, command: 3),  // memory pools: not in Zephyr
        ]
        for frame in cases {
            let response = try await device.respond(to: frame)
            XCTAssertEqual(response.payload, ["rc": 8], "\(Hex.string(frame, separator: " "))")
        }
    }

    func testResponseOperationsOnKnownCommandsAreInvalid() async throws {
        let device = VirtualDevice()
        for op: UInt8 in [1, 3, 4, 5, 6, 7] {
            let known = try await device.respond(to: TestFrames.raw(byte0: 0x08 | op, command: 0, payload: [0xA0]))
            XCTAssertEqual(known.payload, ["rc": 3], "op \(op)")
            XCTAssertEqual(known.header.operation, .writeResponse)
            let unknown = try await device.respond(to: TestFrames.raw(byte0: 0x08 | op, command: 99, payload: [0xA0]))
            XCTAssertEqual(unknown.payload, ["rc": 8], "op \(op)")
        }
    }

    func testFrameLargerThanBufferIsDroppedSilently() async {
        let device = VirtualDevice(configuration: VirtualDeviceConfiguration(bufferSize: 128))
        let text = String(repeating: "x", count: 200)
        let responses = await device.handle(frame: TestFrames.request(.write, command: 0, payload: ["d": .text(text)]))
        XCTAssertEqual(responses, [])
        let statistics = await device.statistics
        XCTAssertEqual(statistics.oversizedFrames, 1)
        let fits = await device.handle(frame: TestFrames.request(.write, command: 0, payload: ["d": "small"]))
        XCTAssertEqual(fits.count, 1)
    }

    func testResponseLargerThanBufferIsMessageTooLarge() async throws {
        let device = VirtualDevice(configuration: VirtualDeviceConfiguration(bufferSize: 100))
        let response = try await device.respond(to: TestFrames.request(.read, command: 2))
        XCTAssertEqual(response.payload, ["rc": 7])
    }

    func testReservedFlagsAndBitsAreIgnored() async throws {
        let device = VirtualDevice()
        var frame = TestFrames.request(.write, command: 0, payload: ["d": "a"])
        frame[0] |= 0xE0
        frame[1] = 0x80
        let response = try await device.respond(to: frame)
        XCTAssertEqual(response.payload["r"], "a")
        XCTAssertEqual(response.header.flags, 0)
        XCTAssertEqual(response.header.versionBits, 1)
    }

    func testCustomGroupIsDispatched() async throws {
        struct Counter: SimulatedGroup {
            var count = 0
            var group: SMPGroup { .perUser }
            func implements(command: UInt8) -> Bool { command == 0 }
            mutating func handle(_ request: SimulatedRequest, context: inout SimulatedDeviceContext) throws(SimulatedError) -> CBORMap {
                guard request.command == 0 else { throw .notSupported }
                count += 1
                return ["count": .integer(count)]
            }
        }
        let device = VirtualDevice(groups: [Counter()])
        _ = await device.handle(frame: TestFrames.request(.read, group: .perUser, command: 0))
        let second = try await device.respond(to: TestFrames.request(.read, group: .perUser, command: 0))
        XCTAssertEqual(second.payload["count"], 2)
        let state = await device.group(.perUser) as? Counter
        XCTAssertEqual(state?.count, 2)
    }

    func testRandomFramesNeverCrashTheDevice() async {
        var random = SystemRandomNumberGenerator()
        let device = VirtualDevice()
        let seeds: [[UInt8]] = [
            TestFrames.request(.write, command: 0, payload: ["d": "seed"]),
            TestFrames.request(.write, command: 4, payload: ["datetime": "2024-01-02T03:04:05.6"]),
            TestFrames.request(.read, command: 7, payload: ["format": "a"]),
            TestFrames.request(.write, command: 5, payload: ["force": true, "boot_mode": 1]),
        ]
        for round in 0..<3000 {
            var frame: [UInt8]
            if round % 2 == 0 {
                frame = (0..<Int.random(in: 0...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            } else {
                frame = seeds[round % seeds.count]
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let index = Int.random(in: 0..<frame.count, using: &random)
                    frame[index] = UInt8.random(in: 0...255, using: &random)
                }
            }
            _ = await device.handle(frame: frame)
        }
        let statistics = await device.statistics
        XCTAssertEqual(statistics.frames, 3000)
    }
}
