import Foundation
import SMPConsoleFraming
import SMPTestSupport
import XCTest

/// The shape of every line the encoder writes: markers, `\n`, the length limit, whole base64
/// quanta on every line but the last, padding only at the end, and the packet inside.
final class SerialFrameEncoderShapeTests: XCTestCase {
    private static let styles: [SerialFrameEncoder.Style] = [.client, .zephyrDevice]

    /// Checks one encoding; returns a failure description or nil. Works on bytes (Foundation's
    /// base64 decoder is the independent reference) to stay fast over hundreds of thousands of lines.
    ///
    /// With `thorough` false, the lines' base64 is checked by the package's own decoder (which has
    /// its own tests) rather than by Foundation line by line, which is several times slower.
    private func problem(_ encoder: SerialFrameEncoder, _ message: [UInt8], thorough: Bool = true) -> String? {
        let lines = encoder.lines(for: message)
        guard !lines.isEmpty else { return "no line" }
        var text: [UInt8] = []
        var decoder = SerialFrameDecoder()
        var decoded: [[UInt8]] = []
        for (index, line) in lines.enumerated() {
            guard line.count <= encoder.lineLength else { return "line \(index) has \(line.count) bytes" }
            guard line.count >= 3, line[line.count - 1] == 0x0A else { return "line \(index) malformed" }
            let marker = (line[0], line[1])
            guard marker == (index == 0 ? (0x06, 0x09) : (0x04, 0x14)) else { return "line \(index) marker \(marker)" }
            let piece = line[2..<(line.count - 1)]
            guard !piece.isEmpty, piece.count % 4 == 0 else { return "line \(index) has \(piece.count) characters" }
            // Foundation rejects `=` anywhere but at the end, so only the end needs looking at.
            guard index == lines.count - 1 || piece.last != UInt8(ascii: "=") else { return "padding in line \(index)" }
            if thorough {
                // Each line decodes on its own, as Zephyr decodes it.
                guard Data(base64Encoded: Data(piece)) != nil else { return "line \(index) is not base64 on its own" }
                text += piece
            } else {
                decoded += decoder.feed(line)
            }
        }
        if thorough {
            guard Data(base64Encoded: Data(text)).map([UInt8].init) == Framing.packet(message) else {
                return "the packet inside differs"
            }
        } else {
            guard decoded == [message], decoder.statistics.packets == 1, decoder.statistics.droppedPackets == 0 else {
                return "does not decode: \(decoder.statistics)"
            }
        }
        return nil
    }

    /// Every message size 0…3000 at the default line length (and a few others), both styles.
    func testEveryMessageSizeUpTo3000() {
        var random = SplitMix64(seed: 3000)
        let data = Framing.message(3000, &random)
        for lineLength in [127, 128, 16, 19] {
            for style in Self.styles {
                let encoder = SerialFrameEncoder(lineLength: lineLength, style: style)
                var failures = 0
                for count in Array(0...800) + Array(stride(from: 801, through: 3000, by: 13)) {
                    if let problem = problem(encoder, Array(data.prefix(count))) {
                        failures += 1
                        if failures <= 5 { XCTFail("\(style), line length \(lineLength), \(count) bytes: \(problem)") }
                    }
                }
                XCTAssertEqual(failures, 0, "\(style), line length \(lineLength)")
            }
        }
    }

    /// Every line length 16…8192, for message sizes around the line capacity.
    func testEveryLineLengthFrom16To8192() {
        var random = SplitMix64(seed: 8192)
        let data = Framing.message(8000, &random)
        var failures = 0
        for lineLength in 16...8192 {
            let capacity = (lineLength - 3) / 4 * 3  // raw bytes on a full line
            // A line just full (Zephyr: the CRC does not fit, a byte moves on) and two lines; for
            // short lines and every 16th length also the neighbours and tiny messages, for every
            // 64th many lines. (All of them for all 8177 lengths take minutes in a debug build.)
            var counts: Set = [capacity - 3, capacity + 7]
            if lineLength < 300 || lineLength % 32 == 0 { counts.formUnion([0, 1, capacity - 4, capacity - 2]) }
            if lineLength % 64 == 0 { counts.formUnion([2 * capacity + 1, 3000]) }
            counts = counts.filter { $0 >= 0 && $0 <= data.count }
            for style in Self.styles {
                let encoder = SerialFrameEncoder(lineLength: lineLength, style: style)
                for count in counts.sorted() {
                    if let problem = problem(encoder, Array(data.prefix(count)), thorough: false) {
                        failures += 1
                        if failures <= 5 { XCTFail("\(style), line length \(lineLength), \(count) bytes: \(problem)") }
                    }
                }
            }
        }
        XCTAssertEqual(failures, 0)
    }

    /// `lines(for:)` are the lines of `encode`, in order.
    func testLinesConcatenateToEncode() {
        var random = SplitMix64(seed: 4)
        for style in Self.styles {
            for count in [0, 1, 17, 89, 90, 200, 1000, 3000] {
                let encoder = SerialFrameEncoder(lineLength: 16 + random.below(200), style: style)
                let message = Framing.message(count, &random)
                XCTAssertEqual(Array(encoder.lines(for: message).joined()), encoder.encode(message))
            }
        }
    }

    /// `.client` fills every line but the last with ⌊(lineLength − 3) / 4⌋ × 4 characters.
    func testClientLinesAreFull() {
        var random = SplitMix64(seed: 124)
        for lineLength in [16, 19, 127, 128, 131, 1000] {
            let chunk = (lineLength - 3) / 4 * 4
            for count in [0, 50, 93, 94, 500, 2000] {
                let lines = SerialFrameEncoder(lineLength: lineLength).lines(for: Framing.message(count, &random))
                let total = (count + 4 + 2) / 3 * 4
                XCTAssertEqual(lines.count, (total + chunk - 1) / chunk, "\(lineLength), \(count)")
                XCTAssertEqual(lines.dropLast().map { $0.count - 3 }, Array(repeating: chunk, count: lines.count - 1))
                XCTAssertEqual(lines.last.map { $0.count - 3 }, total - chunk * (lines.count - 1))
            }
        }
    }

    /// smp's default line length (127 → 120 characters with its "− 4") is not ours; smpclient
    /// passes 128 (124 characters), which is what `.client` writes for 127.
    func testClientChunkIs124ForDefaultLineLength() {
        let lines = SerialFrameEncoder().lines(for: [UInt8](repeating: 0, count: 1000))
        XCTAssertEqual(lines.first?.count, 127)
        XCTAssertEqual(lines.first.map { $0.count - 3 }, 124)
    }
}
