@testable import SMPSerial
import SMP
import XCTest

/// The pacer keeps every span of `gap` to at most `burst` lines; losses slow the pacing down to
/// a floor, never further.
final class LinePacerTests: XCTestCase {
    private let start = ContinuousClock.now

    func testABurstGoesOutThenTheNextLineWaitsForTheGap() {
        let pacing = LinePacing(burst: 2, gap: .milliseconds(20))
        var pacer = LinePacer()
        XCTAssertEqual(pacer.delay(before: start, pacing: pacing), .zero)
        pacer.record(start, pacing: pacing)
        XCTAssertEqual(pacer.delay(before: start, pacing: pacing), .zero)
        pacer.record(start, pacing: pacing)
        XCTAssertEqual(pacer.delay(before: start + .milliseconds(5), pacing: pacing), .milliseconds(15))
        pacer.record(start + .milliseconds(20), pacing: pacing)
        // The second line of the first burst was at 0: the fourth may go at 20 ms, the fifth at 40 ms.
        XCTAssertEqual(pacer.delay(before: start + .milliseconds(20), pacing: pacing), .zero)
        pacer.record(start + .milliseconds(20), pacing: pacing)
        XCTAssertEqual(pacer.delay(before: start + .milliseconds(21), pacing: pacing), .milliseconds(19))
    }

    func testUnpacedNeverWaits() {
        var pacer = LinePacer()
        for _ in 0..<100 { pacer.record(start, pacing: .unpaced) }
        XCTAssertEqual(pacer.delay(before: start, pacing: .unpaced), .zero)
        XCTAssertTrue(LinePacing(burst: 0, gap: .milliseconds(20)).isUnpaced)
    }

    func testLossesSlowDownToTheFloorAndNoFurther() {
        var pacing = LinePacing(burst: 16, gap: .milliseconds(20))
        var seen = [pacing]
        for _ in 0..<12 {
            pacing = pacing.slower
            seen.append(pacing)
        }
        XCTAssertEqual(seen.prefix(7).map(\.burst), [16, 8, 4, 2, 1, 1, 1])
        XCTAssertEqual(pacing, .slowest)
        XCTAssertEqual(LinePacing.unpaced.slower, .zephyrDefault)
        let patient = LinePacing(burst: 1, gap: .milliseconds(200))
        XCTAssertEqual(patient.slower, patient, "a gap the user set above the floor is kept")
    }

    /// The pacer's waits are checked above with given instants, and the channel's honouring of a
    /// pacer in DescriptorChannelTests; that no line outruns the simulated wire is
    /// Benchmarks/run-serial.sh's check. Here a paced link carries a message of many lines whole.
    func testAPacedLinkCarriesAMessageOfManyLines() async throws {
        // The stock Zephyr pacing: 2 lines per 20 ms. A 1000-byte echo takes 11 lines.
        let link = try await PTYLink.start(configuration: .init(bufferSize: 2048, bufferCount: 4), port: SerialPortOptions())
        XCTAssertEqual(link.transport.linePacing, .zephyrDefault)
        XCTAssertFalse(link.transport.linePacingIsSettled)
        link.transport.setLinePacing(.zephyrDefault, settled: true)
        let text = String(repeating: "p", count: 1000)
        XCTAssertEqual(link.transport.lineCount(forMessageOfSize: 1014), 11)
        let answer = try await link.client.send(OSEcho(text))
        XCTAssertEqual(answer, text)
        await link.stop()
    }
}
