import SMPSerial
@testable import SMPSimulator
import SMPTestSupport
import XCTest

/// The pieces of the UART simulation: pacing, log lines, noise and CRC damage.
final class SerialLineSimulationTests: XCTestCase {
    func testThePacerQueuesBytesBehindEachOther() {
        var pacer = SerialLinePacer(baudRate: 115_200)
        XCTAssertEqual(pacer.bytesPerSecond, 11_520)
        let start = ContinuousClock.now
        let first = pacer.schedule(1152, at: start)
        XCTAssertEqual(first - start, .milliseconds(100))
        let second = pacer.schedule(1152, at: start + .milliseconds(10))
        XCTAssertEqual(second - start, .milliseconds(200), "queued behind the first while the line is busy")
        let later = start + .seconds(5)
        XCTAssertEqual(pacer.schedule(576, at: later) - later, .milliseconds(50), "an idle line starts from now")
        XCTAssertEqual(SerialLinePacer(baudRate: 115_200).chunkSize, 57)
        XCTAssertEqual(SerialLinePacer(baudRate: 300).chunkSize, 16)
        XCTAssertEqual(SerialLinePacer(baudRate: 100_000_000).chunkSize, 4096)
    }

    func testLogLinesLookLikeZephyrs() {
        XCTAssertEqual(
            ConsoleLogLines.timestamp(.seconds(3723) + .milliseconds(45) + .microseconds(6)), "[01:02:03.045,006]")
        var lines = ConsoleLogLines()
        let line = String(decoding: lines.next(uptime: .milliseconds(1234)), as: UTF8.self)
        XCTAssertEqual(line, "[00:00:01.234,000] <inf> main: heartbeat #1\r\n")
        let second = lines.next(uptime: .seconds(2))
        XCTAssertFalse(second.contains(0x06) || second.contains(0x04), "never an SMP marker")
    }

    func testACRCErrorIsCaughtByTheCRCAlone() {
        var impairment = SerialLineImpairment(noise: 0, crcErrors: 1, seed: 9)
        var random = SplitMix64(seed: 4)
        for size in [8, 9, 10, 11, 17, 100, 380, 1000] {
            let message = (0..<size).map { _ in UInt8.random(in: 0...255, using: &random) }
            let lines = SerialFrameEncoder(style: .zephyrDevice).lines(for: message)
            let damaged = impairment.withCRCError(lines)
            XCTAssertNotEqual(damaged, lines)
            XCTAssertEqual(damaged.map(\.count), lines.map(\.count))
            var decoder = SerialFrameDecoder()
            XCTAssertEqual(decoder.feed(damaged.joined()), [])
            XCTAssertEqual(decoder.statistics.crcErrors, 1, "\(size) bytes")
            XCTAssertEqual(decoder.statistics.droppedPackets, 1)
            XCTAssertEqual(decoder.feed(lines.joined()), [message], "the undamaged packet still decodes")
        }
    }

    func testFlippingTheLowestBitStaysInTheAlphabet() {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        for (value, character) in alphabet.enumerated() {
            XCTAssertEqual(SerialLineImpairment.flipLowestBit(character), alphabet[value ^ 1])
        }
        XCTAssertNil(SerialLineImpairment.flipLowestBit(UInt8(ascii: "=")))
    }

    func testNoiseInsertsABurstIntoSomeLines() {
        var impairment = SerialLineImpairment(noise: 0.5, crcErrors: 0, seed: 1)
        let line = Array("\u{6}\u{9}ABCDEFGH\n".utf8)
        var noisy = 0
        for _ in 0..<200 {
            let (result, hit) = impairment.withNoise(line)
            if hit {
                noisy += 1
                XCTAssertTrue((line.count + 1...line.count + 8).contains(result.count))
            } else {
                XCTAssertEqual(result, line)
            }
        }
        XCTAssertTrue((70...130).contains(noisy), "\(noisy) of 200")
        var clean = SerialLineImpairment(noise: 0, crcErrors: 0, seed: 1)
        XCTAssertFalse(clean.withNoise(line).noisy)
        XCTAssertFalse(clean.drawCRCError())
    }

    func testOptionsAreClamped() {
        let options = PTYSimulatorOptions(baudRate: 0, logLinesPerSecond: -3, noise: 2, crcErrors: .nan)
        XCTAssertEqual(options.baudRate, 1)
        XCTAssertEqual(options.logLinesPerSecond, 0)
        XCTAssertEqual(options.noise, 1)
        XCTAssertEqual(options.crcErrors, 0)
    }
}
