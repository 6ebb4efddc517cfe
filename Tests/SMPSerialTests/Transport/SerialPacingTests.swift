import SMP
import SMPSerial
import SMPSimulator
import XCTest

/// A simulator paced at a baud rate moves no more than baud / 10 bytes per second each way.
final class SerialPacingTests: XCTestCase {
    func testAt115200TheRequestDirectionNeverOutrunsTheWire() async throws {
        let baud = 115_200
        let link = try await PTYLink.start(simulator: PTYSimulatorOptions(baudRate: baud))
        let client = link.client
        let text = largestEchoText(fitting: await client.maximumMessageSize())
        _ = try await client.send(OSEcho(text))  // warm-up
        let sentBefore = link.transport.statistics.bytesSent
        let clock = ContinuousClock()
        let start = clock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    for _ in 0..<8 { _ = try await client.send(OSEcho(text)) }
                }
            }
            try await group.waitForAll()
        }
        let seconds = (clock.now - start) / .seconds(1)
        let wireBytes = Double(link.transport.statistics.bytesSent - sentBefore)
        let ratio = wireBytes / seconds / (Double(baud) / 10)
        // How near the ceiling a window gets is a benchmark's figure (Benchmarks/run-serial.sh); a
        // loaded machine only makes it lower, so this bound holds anywhere.
        XCTAssertLessThanOrEqual(ratio, 1.03, "never faster than the line: \(ratio)")
        await link.stop()
    }

    func testASlowLineTakesAsLongAsItsBytes() async throws {
        let link = try await PTYLink.start(simulator: PTYSimulatorOptions(baudRate: 9600))
        let clock = ContinuousClock()
        let start = clock.now
        _ = try await link.client.send(OSEcho(String(repeating: "s", count: 200)))
        let elapsed = clock.now - start
        // About 290 bytes each way at 960 bytes per second: at least 0.6 s in all.
        let minimum = Double(link.transport.statistics.bytesSent + link.transport.statistics.framing.bytes) / 960
        XCTAssertGreaterThan(elapsed / .seconds(1), minimum * 0.95)
        await link.stop()
    }
}
