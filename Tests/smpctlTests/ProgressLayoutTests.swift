import CBOR
import Logging
import SMP
import XCTest
@testable import smpctl

/// The progress lines as pure functions of the width, and the choice of display.
final class ProgressLayoutTests: XCTestCase {
    private let samples: [UploadProgress] = [
        UploadProgress(acknowledged: 0, total: 204_800, bytesPerSecond: 0, chunksSent: 1, bytesSent: 0),
        UploadProgress(acknowledged: 92_160, total: 204_800, bytesPerSecond: 122_880, chunksSent: 40, bytesSent: 92_160),
        UploadProgress(acknowledged: 1 << 40, total: 1 << 40, bytesPerSecond: 1e9, chunksSent: 9, bytesSent: 1 << 40),
        UploadProgress(acknowledged: 1, total: 1 << 30, bytesPerSecond: 1, chunksSent: 1, bytesSent: 1),
    ]

    func testTheBarNeverExceedsWidthLessOne() {
        for progress in samples {
            for label in ["", "image 1/2", "a-very-long-file-name-of-a-cache-partition.bin"] {
                for width in 0...240 {
                    let line = ProgressLayout.bar(progress, label: label, width: width)
                    XCTAssertLessThanOrEqual(line.count, max(0, width - 1), "width \(width): \(line)")
                    XCTAssertFalse(line.contains("\n") || line.contains("\r"), line)
                }
            }
        }
    }

    func testTheBarDropsPartsAsTheWidthShrinks() {
        let progress = samples[1]
        let wide = ProgressLayout.bar(progress, label: "image 1/2", width: 200)
        XCTAssertEqual(wide, "image 1/2  [" + String(repeating: "#", count: 18) + String(repeating: "-", count: 22) + "]  45%  90.0/200.0 KiB  120.0 KiB/s  ETA 0.92s")
        let eighty = ProgressLayout.bar(progress, label: "image 1/2", width: 80)
        XCTAssertTrue(eighty.hasPrefix("image 1/2  ["), eighty)
        XCTAssertTrue(eighty.hasSuffix(" 45%  90.0/200.0 KiB  120.0 KiB/s  ETA 0.92s"), eighty)
        let forty = ProgressLayout.bar(progress, label: "image 1/2", width: 40)
        XCTAssertTrue(forty.hasPrefix("["), "the label goes first: \(forty)")
        XCTAssertTrue(forty.hasSuffix(" 45%  ETA 0.92s"), "the ETA stays longest: \(forty)")
        let twenty = ProgressLayout.bar(progress, width: 20)
        XCTAssertEqual(twenty, "[" + String(repeating: "#", count: 5) + String(repeating: "-", count: 7) + "]  45%")
        XCTAssertEqual(ProgressLayout.bar(progress, width: 10), "45%")
        XCTAssertEqual(ProgressLayout.bar(progress, width: 3), "45")
    }

    /// Before there is a rate, the bar shows no speed and no ETA (rather than `--- KiB/s  ETA --`).
    func testBeforeARateThereIsNoSpeedAndNoETA() {
        XCTAssertTrue(ProgressLayout.bar(samples[0], width: 120).hasSuffix("]   0%  0.0/200.0 KiB"), ProgressLayout.bar(samples[0], width: 120))
        XCTAssertEqual(ProgressLayout.plain(samples[0]), "  0%  0.0/200.0 KiB")
    }

    /// Sizes read in the unit the total needs: bytes below 1 KiB, MiB from 10 MiB.
    func testSizesUseTheTotalsUnit() {
        XCTAssertEqual(ProgressLayout.sizes(UploadProgress(acknowledged: 10, total: 11, bytesPerSecond: 0, chunksSent: 1, bytesSent: 10)), "10/11 B")
        XCTAssertEqual(ProgressLayout.sizes(samples[1]), "90.0/200.0 KiB")
        XCTAssertEqual(ProgressLayout.sizes(samples[2]), "1048576.0/1048576.0 MiB")
    }

    func testTheSpinnerFitsAndShortensItsText() {
        let text = "wait for the device to restart (reset it if it does not)"
        for width in 0...200 {
            for frame in 0..<5 {
                let line = ProgressLayout.spinner(frame: frame, text: text, elapsed: 1234.56, width: width)
                XCTAssertLessThanOrEqual(line.count, max(0, width - 1), "width \(width): \(line)")
            }
        }
        XCTAssertEqual(ProgressLayout.spinner(frame: 1, text: text, elapsed: 3.21, width: 200), "/ \(text)  3.2s")
        XCTAssertEqual(ProgressLayout.spinner(frame: 0, text: text, elapsed: 3.21, width: 30), "| wait for the device …  3.2s")
        XCTAssertEqual(ProgressLayout.spinner(frame: 0, text: text, elapsed: 3.21, width: 8), "| 3.2s")
        XCTAssertEqual(ProgressLayout.spinner(frame: 2, text: "", elapsed: 1.3, width: 80), "- 1.3s", "under a step's line: the time alone")
    }

    func testThePlainLineHasNoControlCharacters() {
        for progress in samples {
            let line = ProgressLayout.plain(progress)
            XCTAssertFalse(line.unicodeScalars.contains { $0.value < 0x20 }, line)
        }
        XCTAssertEqual(ProgressLayout.plain(samples[1]), " 45%  90.0/200.0 KiB  120.0 KiB/s")
    }

    /// Plain mode prints a line every 10 s of a transfer, none for its end (the result says it):
    /// a transfer shorter than 10 s prints none.
    func testPlainLinesComeEveryTenSecondsAndNotAtTheEnd() {
        let start = ContinuousClock.now
        XCTAssertFalse(TransferProgressRenderer.plainLineIsDue(since: start, at: start + .seconds(9.9), done: false))
        XCTAssertTrue(TransferProgressRenderer.plainLineIsDue(since: start, at: start + .seconds(10), done: false))
        XCTAssertFalse(TransferProgressRenderer.plainLineIsDue(since: start, at: start + .seconds(30), done: true))
    }

    func testTheModeFollowsTheOptionsThenTheTerminal() {
        XCTAssertEqual(ProgressDisplay.resolve(requested: nil, quiet: false, terminal: true), .bar)
        XCTAssertEqual(ProgressDisplay.resolve(requested: nil, quiet: false, terminal: false), .plain)
        XCTAssertEqual(ProgressDisplay.resolve(requested: .bar, quiet: false, terminal: false), .bar)
        XCTAssertEqual(ProgressDisplay.resolve(requested: .plain, quiet: false, terminal: true), .plain)
        XCTAssertEqual(ProgressDisplay.resolve(requested: .bar, quiet: true, terminal: true), .none)
    }

    // MARK: Logging

    func testVerbosityLevels() {
        let trace = LogEvent(level: .trace, message: "→ 0a 00", metadata: ["seq": "1"], source: "SMP", file: #filePath, function: #function, line: #line)
        let payload = LogEvent(
            level: .trace, message: "request payload", metadata: ["payload": .stringConvertible(CBOR.map(["d": "hi"]))],
            source: "SMP", file: #filePath, function: #function, line: #line)
        let debug = LogEvent(level: .debug, message: "→ os echo", metadata: nil, source: "SMP", file: #filePath, function: #function, line: #line)
        let warning = LogEvent(level: .warning, message: "w", metadata: nil, source: "SMP", file: #filePath, function: #function, line: #line)
        let shown = { (count: Int) in [trace, payload, debug, warning].map { LogVerbosity(count: count).shows($0) } }
        XCTAssertEqual(shown(0), [false, false, false, true])
        XCTAssertEqual(shown(1), [false, false, true, true])
        XCTAssertEqual(shown(2), [false, true, true, true])
        XCTAssertEqual(shown(3), [true, true, true, true])
        XCTAssertEqual(LogVerbosity(count: 0).forFile, LogVerbosity(count: 1))
        XCTAssertEqual(LogVerbosity(count: 3).forFile, LogVerbosity(count: 3))
    }

    func testMetadataReadsInOrderWithThePayloadAsJSON() {
        let metadata: Logger.Metadata = [
            "payload": .stringConvertible(CBOR.map(["d": "hi", "n": 3])), "rc": .stringConvertible(0), "seq": .stringConvertible(7),
            "op": "write", "endpoint": "udp:127.0.0.1:1337", "error": "a b",
        ]
        XCTAssertEqual(
            LogMetadataRendering.text(metadata), #"op=write seq=7 rc=0 error="a b" endpoint=udp:127.0.0.1:1337 payload={"d":"hi","n":3}"#)
        let record = JSONLinesLogHandler.record(time: "t", level: .debug, label: "smp", message: "← os echo", metadata: metadata)
        XCTAssertEqual(
            record.serialized(),
            #"{"time":"t","level":"debug","label":"smp","message":"← os echo","metadata":{"op":"write","seq":7,"rc":0,"error":"a b","endpoint":"udp:127.0.0.1:1337","payload":{"d":"hi","n":3}}}"#)
    }

    func testTimestampsAreUTCWithMilliseconds() {
        XCTAssertEqual(JSONLinesLogHandler.timestamp(seconds: 0, milliseconds: 5), "1970-01-01T00:00:00.005Z")
        XCTAssertEqual(JSONLinesLogHandler.timestamp(seconds: 1_795_700_000, milliseconds: 999), "2026-11-26T13:33:20.999Z")
        XCTAssertNotNil(JSONLinesLogHandler.timestamp().wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/))
    }
}
