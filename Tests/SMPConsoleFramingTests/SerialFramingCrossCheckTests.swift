import Foundation
import SMPConsoleFraming
import SMPTestSupport
import XCTest

/// Cross-checks the framing against the Python `smp` package (the framing of smpclient and
/// smpmgr) in both directions, through `Tests/Scripts/serial/framing_crosscheck.py`.
final class SerialFramingCrossCheckTests: XCTestCase {
    private var script: CrossCheckScript!

    override func setUpWithError() throws {
        script = try CrossCheckScript("serial/framing_crosscheck.py")
    }

    /// Runs the script in one mode; returns the lines of its output file.
    private func runScript(_ mode: String, _ arguments: [String], input: [String]? = nil) throws -> [String] {
        try script.run(mode, arguments, input: input, keepEmptyLines: true)
    }

    /// Swift encodes (both styles, several line lengths), smp decodes: the same messages.
    func testPythonDecodesWhatSwiftEncodes() throws {
        try ExternalTool.requirePythonModules(["smp"])
        var random = SplitMix64(seed: 0x5E71A1)
        var messages: [[UInt8]] = []
        var streams: [String] = []
        for index in 0..<600 {
            let count = random.oneIn(3) ? random.below(4096) : random.below(400)
            let message = Framing.message(index < 4 ? index : count, &random)
            let encoder = SerialFrameEncoder(
                lineLength: [127, 127, 128, 16, 64, 255, 1024][random.below(7)],
                style: index % 2 == 0 ? .client : .zephyrDevice)
            messages.append(message)
            streams.append(Framing.hex(encoder.encode(message)))
        }
        let decoded = try runScript("decode", [], input: streams)
        XCTAssertEqual(decoded.count, messages.count)
        var failures = 0
        for (index, (line, message)) in zip(decoded, messages).enumerated() where line != Framing.hex(message) {
            failures += 1
            if failures <= 10 { XCTFail("message \(index) (\(message.count) bytes): smp read \(line.prefix(200))") }
        }
        XCTAssertEqual(failures, 0, "of \(messages.count) messages")
    }

    /// smp encodes (smpclient's line length and smp's default), Swift decodes the frames as one
    /// stream in random reads: the same messages, no error.
    func testSwiftDecodesWhatPythonEncodes() throws {
        try ExternalTool.requirePythonModules(["smp"])
        let rows = try runScript("encode", ["20250501", "600"])
        XCTAssertEqual(rows.count, 600)
        var messages: [[UInt8]] = []
        var stream: [UInt8] = []
        var lineLengths: Set<Int> = []
        for row in rows {
            let fields = row.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 3, let lineLength = Int(fields[0]) else {
                XCTFail("bad row: \(row.prefix(100))")
                continue
            }
            lineLengths.insert(lineLength)
            let message = Framing.bytes(hex: String(fields[1]))
            let frames = Framing.bytes(hex: String(fields[2]))
            messages.append(message)
            stream += frames
            // Each message alone, too, and the same bytes as our encoder would write for smp's
            // chunk size: smp cuts at ⌊(lineLength − 4) / 4⌋ × 4 characters, we at (lineLength − 3).
            XCTAssertEqual(Framing.decode(frames).messages, [message])
            XCTAssertEqual(frames, SerialFrameEncoder(lineLength: lineLength - 1).encode(message))
        }
        XCTAssertEqual(lineLengths, [127, 128])
        var random = SplitMix64(seed: 600)
        var decoder = SerialFrameDecoder()
        let decoded = Framing.feed(stream, to: &decoder) { 1 + random.below(300) }
        XCTAssertTrue(decoded == messages, "\(decoded.count) of \(messages.count) messages")
        XCTAssertEqual(decoder.statistics, Framing.statistics(packets: messages.count, lineBytes: stream.count))
    }
}
