import CBOR
import XCTest
@testable import SMP

final class SMPMessageTests: XCTestCase {
    private func decodeError(_ frame: [UInt8]) -> SMPFrameError? {
        thrownError { () throws(SMPFrameError) in try SMPMessage(decoding: frame) }
    }

    // MARK: Encoding

    func testEncodesTheWorkedEchoExample() {
        let message = SMPMessage(
            header: SMPHeader(operation: .write, length: 0, group: .os, sequence: 0x42, command: 0),
            payload: ["d": "hello"])
        XCTAssertEqual(message.encoded(), hex("0a 00 00 09 00 00 42 00 a1 61 64 65 68 65 6c 6c 6f"))
    }

    func testEncodingSetsTheLengthFromThePayload() {
        let message = SMPMessage(
            header: SMPHeader(operation: .read, length: 999, group: .os, sequence: 3, command: 6), payload: [:])
        XCTAssertEqual(message.encoded(), hex("08 00 00 01 00 00 03 06 a0"))
    }

    func testEncodingWithIndefiniteContainersCountsTheBreak() {
        let message = SMPMessage(
            header: SMPHeader(operation: .readResponse, length: 0, group: .os, sequence: 7, command: 0),
            payload: ["r": "hi"])
        let frame = message.encoded(indefiniteContainers: true)
        XCTAssertEqual(frame, hex("09 00 00 07 00 00 07 00 bf 61 72 62 68 69 ff"))
        XCTAssertEqual(try SMPMessage(decoding: frame).payload, ["r": "hi"])
    }

    func testLongPayloadLengthUsesBothBytes() throws {
        let text = String(repeating: "x", count: 300)
        let frame = SMPMessage(
            header: SMPHeader(operation: .write, length: 0, group: .os, sequence: 0, command: 0),
            payload: ["d": .text(text)]
        ).encoded()
        let payloadCount = frame.count - 8
        XCTAssertEqual(payloadCount, 1 + 2 + 3 + 300)  // map head, "d", text head (0x79 0x01 0x2c), text
        XCTAssertEqual(Int(frame[2]) << 8 | Int(frame[3]), payloadCount)
        XCTAssertEqual(try SMPMessage(decoding: frame).payload["d"], .text(text))
    }

    // MARK: Decoding

    func testDecodesTheWorkedResponses() throws {
        let v1 = try SMPMessage(decoding: hex("01 00 00 05 00 00 03 06 a1 62 72 63 08"))
        XCTAssertEqual(v1.payload, ["rc": 8])
        XCTAssertEqual(SMPResponse(header: v1.header, payload: v1.payload).deviceError,
                       .returnCode(.notSupported, group: 0, reason: nil))

        let v2 = try SMPMessage(decoding: hex(
            "0b 00 00 11 00 01 04 01 a1 63 65 72 72 a2 65 67 72 6f 75 70 01 62 72 63 09"))
        XCTAssertEqual(v2.payload, ["err": ["group": 1, "rc": 9]])
        XCTAssertEqual(SMPResponse(header: v2.header, payload: v2.payload).deviceError,
                       .groupError(SMPGroupError(group: 1, code: 9, requestGroup: 1)))
    }

    func testDecodePrefixOfBackToBackMessages() throws {
        let first = hex("09 00 00 06 00 00 01 00 a1 61 72 62 68 69")
        let second = hex("0b 00 00 01 00 00 02 05 a0")
        let frame = first + second

        let (message1, consumed1) = try SMPMessage.decodePrefix(frame[...])
        XCTAssertEqual(consumed1, first.count)
        XCTAssertEqual(message1.header.sequence, 1)
        XCTAssertEqual(message1.payload, ["r": "hi"])

        let rest = frame[consumed1...]
        XCTAssertEqual(rest.startIndex, first.count)
        let (message2, consumed2) = try SMPMessage.decodePrefix(rest)
        XCTAssertEqual(consumed2, second.count)
        XCTAssertEqual(message2.header.sequence, 2)
        XCTAssertEqual(message2.header.command, 5)
        XCTAssertEqual(message2.payload, [:])
    }

    func testWholeMessageDecodingRejectsTrailingBytes() {
        let frame = hex("09 00 00 01 00 00 01 00 a0 09 00")
        XCTAssertEqual(decodeError(frame), .lengthMismatch(declared: 1, available: 3))
    }

    func testLengthLargerThanTheFrame() {
        let frame = hex("09 00 00 0a 00 00 01 00 a1 61 72 62 68")
        XCTAssertEqual(decodeError(frame), .lengthMismatch(declared: 10, available: 5))
        XCTAssertEqual(SMPFrameError.lengthMismatch(declared: 10, available: 5).description,
                       "header declares 10 payload bytes but 5 arrived")
    }

    func testTruncatedHeaderAndInvalidOperation() {
        XCTAssertEqual(decodeError(hex("09 00 00")), .truncatedHeader(count: 3))
        XCTAssertEqual(decodeError(hex("0c 00 00 01 00 00 01 00 a0")), .invalidOperation(4))
    }

    func testInvalidCBOR() {
        guard case .invalidCBOR(let detail)? = decodeError(hex("09 00 00 01 00 00 01 00 ff")) else {
            return XCTFail("expected invalid CBOR")
        }
        XCTAssertFalse(detail.isEmpty)
        // A map cut short inside the declared length.
        guard case .invalidCBOR? = decodeError(hex("09 00 00 02 00 00 01 00 a1 61")) else {
            return XCTFail("expected invalid CBOR for a truncated map")
        }
        // Bytes after the map, inside the declared length.
        guard case .invalidCBOR? = decodeError(hex("09 00 00 02 00 00 01 00 a0 00")) else {
            return XCTFail("expected invalid CBOR for trailing payload bytes")
        }
        // A zero-length payload is not a CBOR item.
        guard case .invalidCBOR? = decodeError(hex("09 00 00 00 00 00 01 00")) else {
            return XCTFail("expected invalid CBOR for an empty payload")
        }
    }

    func testPayloadNotAMap() {
        XCTAssertEqual(decodeError(hex("09 00 00 04 00 00 01 00 83 01 02 03")), .payloadNotAMap("array"))
        XCTAssertEqual(decodeError(hex("09 00 00 01 00 00 01 00 05")), .payloadNotAMap("integer"))
        XCTAssertEqual(decodeError(hex("09 00 00 03 00 00 01 00 62 68 69")), .payloadNotAMap("text string"))
        XCTAssertEqual(SMPFrameError.payloadNotAMap("array").description, "payload is a CBOR array, not a map")
    }

    func testIndefiniteLengthMapsFromAZephyrLikeDevice() throws {
        // {_ "tasks": {_ "idle": {_ "prio": 15, "tid": 0}, "main": {_ "prio": -1, "tid": 1}}} as zcbor writes it.
        let payload = hex("""
            bf 65 74 61 73 6b 73 bf
               64 69 64 6c 65 bf 64 70 72 69 6f 0f 63 74 69 64 00 ff
               64 6d 61 69 6e bf 64 70 72 69 6f 20 63 74 69 64 01 ff
            ff ff
            """)
        let frame = SMPHeader(operation: .readResponse, length: UInt16(payload.count), group: .os, sequence: 9, command: 2).bytes + payload
        let message = try SMPMessage(decoding: frame)
        let tasks = try OSTaskStatistics().decodeResponse(message.payload)
        XCTAssertEqual(tasks.map(\.name), ["idle", "main"])
        XCTAssertEqual(tasks.map(\.priority), [15, -1])
        XCTAssertEqual(tasks.map(\.id), [0, 1])
    }

    func testIndefiniteArraysAndStringsInsideAMap() throws {
        // {_ "a": [_ 1, 2], "t": (_ "ab", "c")}
        let payload = hex("bf 61 61 9f 01 02 ff 61 74 7f 62 61 62 61 63 ff ff")
        let frame = SMPHeader(operation: .readResponse, length: UInt16(payload.count), group: .os, sequence: 0, command: 0).bytes + payload
        let message = try SMPMessage(decoding: frame)
        XCTAssertEqual(message.payload["a"], [1, 2])
        XCTAssertEqual(message.payload["t"], "abc")
    }

    func testEncodeDecodeRoundTrip() throws {
        let message = SMPMessage(
            header: SMPHeader(operation: .write, version: .v1, flags: 0x40, length: 0, group: .fileSystem, sequence: 200, command: 1),
            payload: ["off": 0, "name": "/lfs/a.txt", "data": .bytes([1, 2, 3]), "len": 3])
        let decoded = try SMPMessage(decoding: message.encoded())
        XCTAssertEqual(decoded.payload, message.payload)
        XCTAssertEqual(decoded.header.flags, 0x40)
        XCTAssertEqual(decoded.header.version, .v1)
        XCTAssertEqual(decoded.header.group, .fileSystem)
        XCTAssertEqual(decoded.header.sequence, 200)
        XCTAssertEqual(Int(decoded.header.length), message.encoded().count - 8)
    }
}
