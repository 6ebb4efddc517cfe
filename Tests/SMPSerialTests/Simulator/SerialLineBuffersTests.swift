import SMPSerial
@testable import SMPSimulator
import XCTest

/// Zephyr's receive line buffers and shell, as the serial simulator models them.
final class SerialLineBuffersTests: XCTestCase {
    private let lines = SerialFrameEncoder().lines(for: Array(repeating: 0x5A, count: 200))

    func testABurstLosesTheLinesThatFindNoBuffer() {
        XCTAssertEqual(lines.count, 3)
        var buffers = SerialLineBuffers(count: 2, size: 128, drain: .milliseconds(10))
        let start = ContinuousClock.now
        XCTAssertEqual(buffers.receive(lines.joined().map { $0 }, at: start), [.line(lines[0]), .line(lines[1]), .overrun])
        XCTAssertEqual(buffers.receive(lines[2], at: start + .milliseconds(5)), [.overrun], "still draining")
        XCTAssertEqual(buffers.receive(lines[2], at: start + .milliseconds(10)), [.line(lines[2])], "freed after the drain")
    }

    func testALineLongerThanABufferIsDroppedWholeAndTextPasses() {
        var buffers = SerialLineBuffers(count: 2, size: 16, drain: .zero)
        let long = [0x06, 0x09] + Array(repeating: UInt8(ascii: "A"), count: 20) + [0x0A]
        let short: [UInt8] = [0x04, 0x14, 0x41, 0x41, 0x0A]
        let events = buffers.receive(Array("log\r\n".utf8) + long + short + [0x06, 0x41], at: .now)
        XCTAssertEqual(events, [.text(Array("log\r\n".utf8)), .tooLong, .line(short), .text([0x06, 0x41])])
        XCTAssertEqual(buffers.receive([0x06], at: .now), [], "a marker's first byte waits for the next")
        XCTAssertEqual(buffers.receive([0x09, 0x0A], at: .now), [.line([0x06, 0x09, 0x0A])], "markers split across reads")
    }

    func testTheShellEchoesAndAnswersLikeZephyrs() {
        var shell = SimulatedShell(configuration: VirtualDeviceConfiguration())
        let prompt = "\u{1B}[1;32muart:~$ \u{1B}[m"
        XCTAssertEqual(String(decoding: shell.input(Array("ab".utf8), uptime: .zero), as: UTF8.self), "ab")
        XCTAssertEqual(
            String(decoding: shell.input(Array("c\r\n".utf8), uptime: .zero), as: UTF8.self),
            "c\r\n\u{1B}[1;31mabc: command not found\r\n\u{1B}[m" + prompt, "\\r\\n runs the line once")
        XCTAssertEqual(
            String(decoding: shell.input(Array("kernel uptime\r".utf8), uptime: .milliseconds(1540)), as: UTF8.self),
            "kernel uptime\r\nUptime: 1540 ms\r\n" + prompt)
        XCTAssertEqual(
            String(decoding: shell.input(Array("kernel version\r".utf8), uptime: .zero), as: UTF8.self),
            "kernel version\r\nZephyr version 4.1.0\r\n" + prompt, "the device's own version")
        _ = shell.input(Array("x".utf8), uptime: .zero)
        XCTAssertEqual(
            String(decoding: shell.overrunWarning(uptime: .milliseconds(5260)), as: UTF8.self),
            "\u{1B}[9D\u{1B}[J[00:00:05.260,000] \u{1B}[1;33m<wrn> smp_shell: Failed to alloc SMP buf\u{1B}[0m\r\n" + prompt + "x")
    }
}
