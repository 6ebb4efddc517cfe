#if canImport(Glibc)
import Glibc
#endif
import SMP
@testable import SMPSerial
import SMPTestSupport
import XCTest

/// The line settings a port is opened with, read back from the terminal.
final class SerialPortSettingsTests: XCTestCase {
    func testRaw8N1NonBlockingWithReceiverOn() throws {
        let terminal = try TestTerminal()
        let port = try SerialPort.open(path: terminal.slavePath)
        defer { port.close() }
        var settings = termios()
        XCTAssertEqual(tcgetattr(port.descriptor, &settings), 0)
        XCTAssertEqual(settings.c_lflag & tcflag_t(ICANON | ECHO | ISIG | IEXTEN), 0, "no line editing, no echo, no signals")
        XCTAssertEqual(settings.c_iflag & tcflag_t(ICRNL | IXON | ISTRIP), 0, "bytes pass unchanged")
        XCTAssertEqual(settings.c_oflag & tcflag_t(OPOST), 0)
        XCTAssertEqual(settings.c_cflag & tcflag_t(CSIZE), tcflag_t(CS8))
        XCTAssertEqual(settings.c_cflag & tcflag_t(PARENB | CSTOPB), 0, "no parity, one stop bit")
        XCTAssertEqual(settings.c_cflag & tcflag_t(CLOCAL | CREAD), tcflag_t(CLOCAL | CREAD))
        XCTAssertEqual(settings.c_cflag & tcflag_t(CRTSCTS), 0)
        let (minimum, time) = withUnsafeBytes(of: settings.c_cc) { ($0[Int(VMIN)], $0[Int(VTIME)]) }
        XCTAssertEqual(minimum, 1)
        XCTAssertEqual(time, 0)
        XCTAssertEqual(cfgetospeed(&settings), speed_t(B115200))
        let flags = fcntl(port.descriptor, F_GETFL)
        XCTAssertNotEqual(flags & O_NONBLOCK, 0)
        XCTAssertNotEqual(fcntl(port.descriptor, F_GETFD) & FD_CLOEXEC, 0)
        XCTAssertEqual(port.baudRate, 115_200)
        XCTAssertEqual(port.devicePath, terminal.slavePath)
    }

    func testHardwareFlowControl() throws {
        let terminal = try TestTerminal()
        let port = try SerialPort.open(path: terminal.slavePath, options: SerialPortOptions(hardwareFlowControl: true))
        defer { port.close() }
        var settings = termios()
        tcgetattr(port.descriptor, &settings)
        XCTAssertEqual(settings.c_cflag & tcflag_t(CRTSCTS), tcflag_t(CRTSCTS))
    }

    func testStandardRatesUpTo4Megabaud() throws {
        let terminal = try TestTerminal()
        for (rate, constant) in [(9600, B9600), (1_000_000, B1000000), (4_000_000, B4000000)] {
            let port = try SerialPort.open(path: terminal.slavePath, options: SerialPortOptions(baudRate: rate))
            var settings = termios()
            tcgetattr(port.descriptor, &settings)
            XCTAssertEqual(cfgetospeed(&settings), speed_t(constant), "\(rate)")
            XCTAssertEqual(port.baudRate, rate)
            port.close()
        }
    }

    func testACustomRateGoesThroughTermios2() throws {
        try requireTermios2()
        let terminal = try TestTerminal()
        for rate in [250_000, 31_250, 74_880] {
            let port = try SerialPort.open(path: terminal.slavePath, options: SerialPortOptions(baudRate: rate))
            guard case .success(let settings) = Termios2.read(port.descriptor) else { return XCTFail("TCGETS2 failed") }
            XCTAssertEqual(settings.outputSpeed, UInt32(rate))
            XCTAssertEqual(settings.inputSpeed, UInt32(rate))
            XCTAssertEqual(settings.controlFlags & Termios2.speedMask, Termios2.otherSpeed, "BOTHER")
            XCTAssertEqual(port.baudRate, rate)
            port.close()
        }
    }

    func testTermios2AgreesWithTermiosOnTheFlags() throws {
        try requireTermios2()
        let terminal = try TestTerminal()
        let port = try SerialPort.open(path: terminal.slavePath)
        defer { port.close() }
        var settings = termios()
        tcgetattr(port.descriptor, &settings)
        guard case .success(let settings2) = Termios2.read(port.descriptor) else { return XCTFail("TCGETS2 failed") }
        XCTAssertEqual(settings2.controlFlags, settings.c_cflag)
        XCTAssertEqual(settings2.outputSpeed, 115_200)
    }

    func testStaleInputIsFlushedOnOpen() throws {
        let terminal = try TestTerminal()
        let first = try SerialPort.open(path: terminal.slavePath)
        terminal.write(Array("stale console output\n".utf8))
        usleep(20_000)
        first.close()
        terminal.write(Array("more stale output\n".utf8))
        usleep(20_000)
        let port = try SerialPort.open(path: terminal.slavePath)
        defer { port.close() }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = read(port.descriptor, &buffer, buffer.count)
        XCTAssertEqual(count, -1, "nothing to read")
        XCTAssertEqual(errno, EAGAIN)
    }

    func testBytesPassUnchangedBothWays() throws {
        let terminal = try TestTerminal()
        let port = try SerialPort.open(path: terminal.slavePath)
        defer { port.close() }
        let all = (0...255).map { UInt8($0) }
        _ = all.withUnsafeBytes { write(port.descriptor, $0.baseAddress, $0.count) }
        var received: [UInt8] = []
        while received.count < all.count {
            let chunk = terminal.read()
            if chunk.isEmpty { break }
            received += chunk
        }
        XCTAssertEqual(received, all, "host → device")
        terminal.write(all)
        usleep(20_000)
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = read(port.descriptor, &buffer, buffer.count)
        XCTAssertEqual(Array(buffer.prefix(max(0, count))), all, "device → host")
    }

    func testAnImpossibleRateIsRefused() async throws {
        let terminal = try TestTerminal()
        do {
            _ = try await SerialTransport.open(path: terminal.slavePath, options: SerialPortOptions(baudRate: 0))
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error.kind, .unsupportedSetting, "a rate the port refuses is the user's value, not an unreachable device")
        }
    }

    /// Skips locally, fails in CI, on an architecture whose termios2 layout SMPSerial does not know.
    private func requireTermios2() throws {
        guard Termios2.isSupported else { try ExternalTool.unavailable("termios2's layout is not known on this architecture") }
    }
}
