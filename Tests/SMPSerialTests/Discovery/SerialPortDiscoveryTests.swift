import SMPSerial
import SMPSerialDiscovery
import SMPTestSupport
import Synchronization
import XCTest

/// Discovery on this machine's own sysfs (whatever it holds): the wait's timeout and cancellation,
/// and that virtual ttys are never listed. The mocked-device tests are in smpctlTests (Ports*).
final class SerialPortDiscoveryTests: XCTestCase {
    private let nowhere = SerialPortSelector.serialNumber("smpctl-test-no-such-device")

    func testVirtualTerminalsConsolesAndPtysAreNeverListed() throws {
        let ports = try SerialPortDiscovery.ports()
        for port in ports {
            XCTAssertFalse(["/dev/console", "/dev/ptmx", "/dev/tty"].contains(port.path), port.description)
            XCTAssertFalse(port.path.hasPrefix("/dev/pts/"), port.description)
            XCTAssertFalse(port.name.hasPrefix("tty") && port.name.dropFirst(3).allSatisfy(\.isNumber), "a virtual terminal: \(port)")
            XCTAssertNotNil(port.bus, port.description)
        }
    }

    func testTheWaitEndsAtTheTimeoutListingThePortsThereAre() async throws {
        let clock = ManualClock()
        let selector = nowhere
        let ended = Mutex(false)
        let wait = Task {
            defer { ended.withLock { $0 = true } }
            return try await SerialPortDiscovery.waitForPort(matching: selector, timeout: .milliseconds(300), pollInterval: .milliseconds(50), clock: clock)
        }
        // Several looks at the ports go by while the wait's clock stands still: it goes on.
        try await Task.sleep(for: .milliseconds(200))
        clock.advance(to: .milliseconds(299))
        try await Task.sleep(for: .milliseconds(100))
        XCTAssertFalse(ended.withLock { $0 }, "the wait ended before its clock reached the timeout")
        clock.advance(to: .milliseconds(300))
        guard case .failure(let failure)? = await outcomeWhileTheClockStands(of: wait), let error = failure as? SerialPortDiscoveryError,
            case .timedOut(let timedOutSelector, let after, let candidates) = error
        else { return XCTFail("the wait did not end with its timeout") }
        XCTAssertEqual(timedOutSelector, nowhere)
        XCTAssertEqual(after, .milliseconds(300))
        XCTAssertEqual(candidates, try SerialPortDiscovery.ports())
    }

    func testCancellingTheTaskEndsTheWaitAtOnce() async throws {
        let selector = nowhere
        // The wait's clock never moves: only the cancellation can end it.
        let wait = Task { try await SerialPortDiscovery.waitForPort(matching: selector, timeout: .seconds(60), pollInterval: .seconds(30), clock: ManualClock()) }
        try await Task.sleep(for: .milliseconds(100))
        wait.cancel()
        guard case .failure(let error)? = await outcomeWhileTheClockStands(of: wait) else { return XCTFail("the wait did not end with an error") }
        XCTAssertTrue(error is CancellationError, "\(error)")
    }

    func testARelocatorWaitsForTheSameDevice() async throws {
        let gone = SerialPortInfo(
            path: "/dev/ttyACM9", usb: .init(vendorID: 0x2FE3, productID: 0x0100, serialNumber: "smpctl-test-gone", interfaceNumber: 0))
        let relocate = SerialPortDiscovery.relocator(for: gone, timeout: .milliseconds(200))
        do {
            _ = try await relocate()
            XCTFail("found a device that does not exist")
        } catch let error as SerialPortDiscoveryError {
            XCTAssertEqual(error.message, "no serial port matching serial-number=smpctl-test-gone (interface 0) appeared within 0.2 s")
        }
    }
}
