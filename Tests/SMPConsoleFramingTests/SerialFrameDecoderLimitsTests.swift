import Foundation
import SMPTestSupport
import XCTest

@testable import SMPConsoleFraming

/// Memory stays bounded on endless input, and a long mixed stream decodes whole. (How fast it
/// decodes is a benchmark's: `smpctl-bench frame-decoding`, in Benchmarks/run-serial.sh.)
final class SerialFrameDecoderLimitsTests: XCTestCase {
    /// Endless enough: 32 times the largest packet a decoder keeps.
    private static let endless = 2 << 20

    /// Feeds `count` bytes made by `pattern` in 64 KiB reads; returns the decoder.
    private func feedEndless(
        _ count: Int, decoder: SerialFrameDecoder = SerialFrameDecoder(), pattern: (Int) -> UInt8
    ) -> SerialFrameDecoder {
        var decoder = decoder
        let read = 64 << 10
        var chunk = [UInt8](repeating: 0, count: read)
        var offset = 0
        var maximumCapacity = 0
        while offset < count {
            for index in 0..<read { chunk[index] = pattern(offset + index) }
            XCTAssertEqual(decoder.feed(chunk), [])
            maximumCapacity = max(maximumCapacity, decoder.retainedCapacity)
            offset += read
        }
        XCTAssertLessThanOrEqual(maximumCapacity, decoder.maximumMessageSize + 64, "memory is bounded by one packet")
        XCTAssertEqual(decoder.statistics.bytes, offset)
        return decoder
    }

    func testEndlessGarbageWithoutNewline() {
        var random = SplitMix64(seed: 10)
        let noise = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &random) }
            .map { $0 == 0x0A || $0 == 0x09 || $0 == 0x14 ? 0x20 : $0 }
        let decoder = feedEndless(Self.endless) { noise[$0 % noise.count] }
        XCTAssertEqual(decoder.statistics.consoleBytes, Self.endless)
        XCTAssertEqual(decoder.retainedCapacity, 0)
    }

    /// A start marker followed by endless base64: an oversize line, then console.
    func testEndlessSMPLine() {
        let decoder = feedEndless(Self.endless) { $0 < 2 ? [0x06, 0x09][$0] : UInt8(ascii: "/") }
        XCTAssertEqual(decoder.statistics.oversizeLines, 1)
        XCTAssertEqual(decoder.statistics.lineBytes, decoder.maximumLineLength)
        XCTAssertEqual(decoder.statistics.consoleBytes, Self.endless - decoder.maximumLineLength)
    }

    /// With no practical line limit, endless base64 stops at the declared length (65535).
    func testEndlessSMPLineWithoutLineLimit() {
        let decoder = feedEndless(Self.endless, decoder: SerialFrameDecoder(maximumLineLength: .max)) {
            $0 < 2 ? [0x06, 0x09][$0] : UInt8(ascii: "/")
        }
        XCTAssertEqual(decoder.statistics.lengthErrors, 1)
        XCTAssertLessThanOrEqual(decoder.retainedCapacity, 65_537 + 64)
    }

    /// Endless start markers, continuations, and first lines that never end their packet.
    func testEndlessMarkersAndPartialPackets() {
        let starts = feedEndless(Self.endless) { [0x06, 0x09][$0 % 2] }
        XCTAssertEqual(starts.statistics.abandonedPackets, Self.endless / 2 - 1)
        let orphans = feedEndless(Self.endless) { [0x04, 0x14][$0 % 2] }
        XCTAssertEqual(orphans.statistics.orphanContinuations, Self.endless / 2)
        let firstLine = SerialFrameEncoder().lines(for: [UInt8](repeating: 7, count: 1000))[0]
        let partial = feedEndless(Self.endless) { firstLine[$0 % firstLine.count] }
        // A first line is abandoned when the next one's start marker has come whole (line k starts
        // at k × its length): every one begun but the last, which still waits.
        XCTAssertEqual(partial.statistics.abandonedPackets, (Self.endless - 2) / firstLine.count)
    }

    /// Frames of random sizes from both encoders with log lines between them, fed in 4 KiB reads:
    /// every packet comes out, nothing is taken for console.
    func testAMixedStreamDecodesWhole() {
        var random = SplitMix64(seed: 99)
        var stream: [UInt8] = []
        var messages: [[UInt8]] = []
        let logLine = Array("[00:00:01.000,000] <inf> log line\r\n".utf8)
        while stream.count < 1 << 20 {
            let message = Framing.message(random.below(2048), &random)
            stream += SerialFrameEncoder(style: random.oneIn(2) ? .client : .zephyrDevice).encode(message) + logLine
            messages.append(message)
        }
        var decoder = SerialFrameDecoder()
        var delivered: [[UInt8]] = []
        var offset = 0
        while offset < stream.count {
            let end = min(stream.count, offset + 4096)
            delivered += decoder.feed(stream[offset..<end]).map { Array($0) }
            offset = end
        }
        XCTAssertEqual(delivered, messages)
        XCTAssertEqual(decoder.statistics.consoleBytes, messages.count * logLine.count)
    }
}
