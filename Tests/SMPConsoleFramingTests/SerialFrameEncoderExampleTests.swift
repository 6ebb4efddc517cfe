import SMPConsoleFraming
import SMPTestSupport
import XCTest

/// The worked examples of docs/protocol/examples.md §21.2, byte for byte.
final class SerialFrameEncoderExampleTests: XCTestCase {
    func testEchoRequestLineIsByteExact() {
        let expected = Framing.bytes(
            hex: "06 09 41 42 4d 4b 41 41 41 4a 41 41 42 43 41 4b 46 68 5a 47 56 6f 5a 57 78 73 62 30 59 5a 0a")
        for style in [SerialFrameEncoder.Style.client, .zephyrDevice] {
            let encoder = SerialFrameEncoder(style: style)
            XCTAssertEqual(encoder.lines(for: Framing.echoRequest), [expected], "\(style)")
            XCTAssertEqual(encoder.encode(Framing.echoRequest), expected, "\(style)")
        }
        XCTAssertEqual(Array(expected[2..<(expected.count - 1)]), Array("ABMKAAAJAABCAKFhZGVoZWxsb0YZ".utf8))
        XCTAssertEqual(
            Framing.base64Decode("ABMKAAAJAABCAKFhZGVoZWxsb0YZ"),
            [0x00, 0x13] + Framing.echoRequest + [0x46, 0x19])
    }

    func testEchoRequestLineDecodes() {
        let line = SerialFrameEncoder().encode(Framing.echoRequest)
        let (messages, statistics) = Framing.decode(line)
        XCTAssertEqual(messages, [Framing.echoRequest])
        XCTAssertEqual(statistics, Framing.statistics(packets: 1, lineBytes: line.count))
    }

    /// A 175-byte serial packet (171-byte message) is 236 base64 characters: 124 + 112.
    func testPacketOf175BytesSplits124Plus112() {
        var random = SplitMix64(seed: 175)
        let message = Framing.message(171, &random)
        let lines = SerialFrameEncoder().lines(for: message)
        XCTAssertEqual(lines.map { $0.count - 3 }, [124, 112])
        XCTAssertEqual(lines.map { Array($0.prefix(2)) }, [[0x06, 0x09], [0x04, 0x14]])
        XCTAssertEqual(lines.map(\.last), [0x0A, 0x0A])
        XCTAssertEqual(lines.map(\.count).max(), 127)
        let text = lines.compactMap { Framing.split(line: $0)?.text }.joined()
        XCTAssertEqual(text.count, 236)
        XCTAssertEqual(Framing.base64Decode(text), Framing.packet(message))
        // Zephyr sends the same packet as 124 + 112 characters too (93 + 82 raw bytes).
        XCTAssertEqual(SerialFrameEncoder(style: .zephyrDevice).lines(for: message).map { $0.count - 3 }, [124, 112])
    }

    func testDefaults() {
        XCTAssertEqual(SerialFrameEncoder.defaultLineLength, 127)
        XCTAssertEqual(SerialFrameEncoder().lineLength, 127)
        XCTAssertEqual(SerialFrameEncoder(lineLength: 3).lineLength, SerialFrameEncoder.minimumLineLength)
        XCTAssertEqual(SerialFrameEncoder.maximumMessageSize(bufferSize: 384), 380)
        XCTAssertEqual(SerialFrameEncoder.maximumMessageSize(bufferSize: 1024), 1020)
        XCTAssertEqual(SerialFrameEncoder.maximumMessageSize(bufferSize: 2), 0)
    }

    /// An empty message still makes a packet (`00 02`, CRC 0), in both styles.
    func testEmptyMessage() {
        for style in [SerialFrameEncoder.Style.client, .zephyrDevice] {
            let bytes = SerialFrameEncoder(style: style).encode([])
            XCTAssertEqual(bytes, [0x06, 0x09] + Array("AAIAAA==".utf8) + [0x0A])
            XCTAssertEqual(Framing.decode(bytes).messages, [[]])
        }
    }

    func testLargestMessage() {
        let message = [UInt8](repeating: 0xA5, count: SerialFrameEncoder.maximumEncodableMessageSize)
        let bytes = SerialFrameEncoder(lineLength: 8192).encode(message)
        XCTAssertEqual(Framing.decode(bytes).messages, [message])
    }
}
