import Foundation
import SMPTestSupport
import XCTest

@testable import SMPConsoleFraming

/// Memory stays bounded on endless input, and decoding is fast enough for a fast serial link.
final class SerialFrameDecoderLimitsTests: XCTestCase {
    private static let tenMegabytes = 10 << 20

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

    func testTenMegabytesOfGarbageWithoutNewline() {
        var random = SplitMix64(seed: 10)
        let noise = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &random) }
            .map { $0 == 0x0A || $0 == 0x09 || $0 == 0x14 ? 0x20 : $0 }
        let decoder = feedEndless(Self.tenMegabytes) { noise[$0 % noise.count] }
        XCTAssertEqual(decoder.statistics.consoleBytes, Self.tenMegabytes)
        XCTAssertEqual(decoder.retainedCapacity, 0)
    }

    /// A start marker followed by endless base64: an oversize line, then console.
    func testEndlessSMPLine() {
        let decoder = feedEndless(Self.tenMegabytes) { $0 < 2 ? [0x06, 0x09][$0] : UInt8(ascii: "/") }
        XCTAssertEqual(decoder.statistics.oversizeLines, 1)
        XCTAssertEqual(decoder.statistics.lineBytes, decoder.maximumLineLength)
        XCTAssertEqual(decoder.statistics.consoleBytes, Self.tenMegabytes - decoder.maximumLineLength)
    }

    /// With no practical line limit, endless base64 stops at the declared length (65535).
    func testEndlessSMPLineWithoutLineLimit() {
        let decoder = feedEndless(Self.tenMegabytes, decoder: SerialFrameDecoder(maximumLineLength: .max)) {
            $0 < 2 ? [0x06, 0x09][$0] : UInt8(ascii: "/")
        }
        XCTAssertEqual(decoder.statistics.lengthErrors, 1)
        XCTAssertLessThanOrEqual(decoder.retainedCapacity, 65_537 + 64)
    }

    /// Endless start markers, continuations, and first lines that never end their packet.
    func testEndlessMarkersAndPartialPackets() {
        let starts = feedEndless(Self.tenMegabytes) { [0x06, 0x09][$0 % 2] }
        XCTAssertEqual(starts.statistics.abandonedPackets, Self.tenMegabytes / 2 - 1)
        let orphans = feedEndless(Self.tenMegabytes) { [0x04, 0x14][$0 % 2] }
        XCTAssertEqual(orphans.statistics.orphanContinuations, Self.tenMegabytes / 2)
        let firstLine = SerialFrameEncoder().lines(for: [UInt8](repeating: 7, count: 1000))[0]
        let partial = feedEndless(Self.tenMegabytes) { firstLine[$0 % firstLine.count] }
        XCTAssertEqual(partial.statistics.abandonedPackets, Self.tenMegabytes / firstLine.count)
    }

    /// Decoding keeps up with a fast link even in a debug build (a 1 Mbaud UART carries 0.1 MB/s;
    /// USB CDC ACM some MB/s). The release build is much faster.
    func testThroughput() {
        var random = SplitMix64(seed: 99)
        var stream: [UInt8] = []
        var count = 0
        while stream.count < 8 << 20 {
            stream += SerialFrameEncoder(style: random.oneIn(2) ? .client : .zephyrDevice)
                .encode(Framing.message(random.below(2048), &random))
            stream += Array("[00:00:01.000,000] <inf> log line\r\n".utf8)
            count += 1
        }
        let start = Date()
        var decoder = SerialFrameDecoder()
        var delivered = 0
        var offset = 0
        while offset < stream.count {
            let end = min(stream.count, offset + 4096)
            delivered += decoder.feed(stream[offset..<end]).count
            offset = end
        }
        let seconds = Date().timeIntervalSince(start)
        let megabytesPerSecond = Double(stream.count) / 1_000_000 / seconds
        print("SerialFrameDecoder: \(Int(megabytesPerSecond)) MB/s (\(stream.count) bytes in \(seconds) s)")
        XCTAssertEqual(delivered, count)
        XCTAssertGreaterThan(megabytesPerSecond, 2)
    }
}
