import SMPSerial
import SMPSerialDiscovery
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
        let clock = ContinuousClock()
        let start = clock.now
        do {
            _ = try await SerialPortDiscovery.waitForPort(matching: nowhere, timeout: .milliseconds(300), pollInterval: .milliseconds(50))
            XCTFail("found a device that does not exist")
        } catch let error as SerialPortDiscoveryError {
            guard case .timedOut(let selector, let after, let candidates) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(selector, nowhere)
            XCTAssertEqual(after, .milliseconds(300))
            XCTAssertEqual(candidates, try SerialPortDiscovery.ports())
        }
        let elapsed = clock.now - start
        XCTAssertGreaterThanOrEqual(elapsed, .milliseconds(300))
        XCTAssertLessThan(elapsed, .seconds(3))
    }

    func testCancellingTheTaskEndsTheWaitAtOnce() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let selector = nowhere
        let wait = Task { try await SerialPortDiscovery.waitForPort(matching: selector, timeout: .seconds(60), pollInterval: .seconds(30)) }
        try await Task.sleep(for: .milliseconds(100))
        wait.cancel()
        do {
            _ = try await wait.value
            XCTFail("found a device that does not exist")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertLessThan(clock.now - start, .seconds(3))
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
