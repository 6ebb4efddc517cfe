import Foundation
import SMP
import XCTest
@testable import SMPKit

final class SMPConnectionTests: XCTestCase {
    private func openError(_ text: String, file: StaticString = #filePath, line: UInt = #line) async -> SMPError? {
        guard let connection = parsed(text, file: file, line: line) else { return nil }
        do {
            let client = try await SMPConnection.open(connection)
            XCTFail("\(text) opened", file: file, line: line)
            await client.close()
            return nil
        } catch {
            return error
        }
    }

    func testSerialPortThatDoesNotExistIsNotFound() async {
        let error = await openError("serial:/dev/ttyNOPE9")
        XCTAssertEqual(error?.transportError?.kind, .notFound)
        XCTAssertTrue(error?.description.contains("no such serial port") == true, "\(String(describing: error))")
        XCTAssertNotNil(error?.hint)
    }

    func testSerialSelectorWithoutMatchIsNotFound() async {
        let error = await openError("serial:usb=ffff:fffe")
        XCTAssertEqual(error?.transportError?.kind, .notFound, "\(String(describing: error))")
    }

    func testBLEWithoutABusIsUnavailableAndSaysWhy() async {
        withoutSystemBus()
        for text in ["ble:AA:BB:CC:DD:EE:FF", "ble:name=Zephyr"] {
            let error = await openError(text)
            XCTAssertEqual(error?.transportError?.kind, .unavailable, text)
            XCTAssertTrue(error?.transportError?.message.contains("the system D-Bus is unreachable") == true, "\(String(describing: error))")
            XCTAssertNotNil(error?.transportError?.hint)
        }
    }

    func testOpeningFromTextReportsTransportErrors() async {
        withoutSystemBus()
        do {
            _ = try await SMPConnection.open("ble:name=Zephyr")
            XCTFail("opened")
        } catch let error as SMPError {
            XCTAssertEqual(error.transportError?.kind, .unavailable)
        } catch {
            XCTFail("unexpected \(error)")
        }
    }

    func testOpeningFromTextReportsParseErrors() async {
        do {
            _ = try await SMPConnection.open("udp:192.0.2.1:0")
            XCTFail("opened")
        } catch let error as ConnectionStringError {
            XCTAssertEqual(error.part, "0")
        } catch {
            XCTFail("unexpected \(error)")
        }
    }

    func testUDPOptionsConfigureTheClient() async throws {
        let client = try await SMPConnection.open(
            "udp:127.0.0.1:9?timeout=2.5&retries=4&mtu=600",
            configuration: SMPClientConfiguration(timeout: .seconds(9), retries: 1, busyRetries: 7))
        XCTAssertEqual(client.configuration.timeout, .milliseconds(2500))
        XCTAssertEqual(client.configuration.retries, 4)
        XCTAssertEqual(client.configuration.busyRetries, 7, "options the string does not set are kept")
        XCTAssertTrue(client.transport.endpoint.contains("127.0.0.1"), client.transport.endpoint)
        XCTAssertLessThanOrEqual(client.transport.maximumMessageSize, 600)
        await client.close()
    }

    func testUDPWithoutOptionsKeepsTheConfiguration() async throws {
        let client = try await SMPConnection.open(
            "udp:127.0.0.1:9", configuration: SMPClientConfiguration(timeout: .milliseconds(700), retries: 0))
        XCTAssertEqual(client.configuration.timeout, .milliseconds(700))
        XCTAssertEqual(client.configuration.retries, 0)
        await client.close()
    }

    /// Points libdbus at a bus that does not exist, for this test (whatever the machine has).
    private func withoutSystemBus() {
        let previous = ProcessInfo.processInfo.environment["DBUS_SYSTEM_BUS_ADDRESS"]
        setenv("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/nonexistent/smpctl-test-bus", 1)
        addTeardownBlock {
            if let previous { setenv("DBUS_SYSTEM_BUS_ADDRESS", previous, 1) } else { unsetenv("DBUS_SYSTEM_BUS_ADDRESS") }
        }
    }
}

extension SMPError {
    var transportError: SMPTransportError? {
        if case .transport(let error) = self { return error }
        return nil
    }
}
