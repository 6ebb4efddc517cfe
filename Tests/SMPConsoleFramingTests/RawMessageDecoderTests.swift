import CBOR
import SMP
import SMPConsoleFraming
import XCTest

/// Bare SMP messages in a byte stream (the raw UART framing): found by their header's length,
/// whatever the chunking, with implausible bytes skipped and memory bounded.
final class RawMessageDecoderTests: XCTestCase {
    private func message(sequence: UInt8, text: String) -> [UInt8] {
        SMPMessage(
            header: SMPHeader(operation: .writeResponse, length: 0, group: .os, sequence: sequence, command: 0),
            payload: ["r": .text(text)]
        ).encoded()
    }

    func testMessagesAreFoundWhateverTheChunking() {
        let stream = (0..<5).flatMap { message(sequence: UInt8($0), text: String(repeating: "x", count: 10 * $0)) }
        for chunk in [1, 3, 7, 64, stream.count] {
            var decoder = RawMessageDecoder()
            var found: [[UInt8]] = []
            var offset = 0
            while offset < stream.count {
                found += decoder.feed(stream[offset..<min(stream.count, offset + chunk)])
                offset += chunk
            }
            XCTAssertEqual(found.count, 5, "chunks of \(chunk)")
            XCTAssertEqual(found.flatMap { $0 }, stream, "chunks of \(chunk)")
            XCTAssertEqual(decoder.statistics.packets, 5)
            XCTAssertFalse(decoder.hasPartialMessage)
        }
    }

    func testImplausibleBytesBeforeAMessageAreSkipped() {
        var decoder = RawMessageDecoder()
        let noise: [UInt8] = [0xFF, 0xE7, 0x3F, 0x20, 0x0D, 0x0A, 0xF0, 0x99, 0x80]
        let answer = message(sequence: 9, text: "hi")
        let found = decoder.feed(noise + answer)
        XCTAssertEqual(found, [answer])
        XCTAssertEqual(decoder.statistics.consoleBytes, noise.count)
        XCTAssertEqual(decoder.statistics.lengthErrors, noise.count)
    }

    func testALengthBeyondTheLimitIsNotWaitedFor() {
        var decoder = RawMessageDecoder(maximumMessageSize: 64)
        // A plausible header announcing 1000 bytes, then a real message.
        let announcing: [UInt8] = [0x09, 0x00, 0x03, 0xE8, 0x00, 0x00, 0x01, 0x00]
        let answer = message(sequence: 1, text: "ok")
        XCTAssertEqual(decoder.feed(announcing + answer), [answer])
        XCTAssertGreaterThan(decoder.statistics.lengthErrors, 0)
    }

    func testResetDropsAPartialMessage() {
        var decoder = RawMessageDecoder()
        let answer = message(sequence: 2, text: "partial")
        XCTAssertEqual(decoder.feed(answer.prefix(10)), [])
        XCTAssertTrue(decoder.hasPartialMessage)
        decoder.reset()
        XCTAssertFalse(decoder.hasPartialMessage)
        XCTAssertEqual(decoder.feed(answer), [answer])
    }
}
