import SMP
import SMPBluetooth
import SMPTestSupport
import XCTest

/// A D-Bus error injected into each BlueZ method the transport calls: a fallback where bluetoothd
/// says a feature is missing, otherwise an error that names the step and BlueZ's own message.
final class BLEInjectedErrorTests: XCTestCase {
    /// Opens a transport after `method` was set to fail once with `org.bluez.Error.<name>`, and
    /// returns the error, or fails the test if the connection opened.
    private func openError(
        _ peripheral: MockedPeripheral, failing method: String, with name: String, _ message: String,
        pair: Bool = false, file: StaticString = #filePath, line: UInt = #line
    ) async throws -> SMPTransportError? {
        try peripheral.mock.control("FailNext", [method, name, message])
        do {
            let transport = try await BLETransport.open(.address(MockedPeripheral.address), options: peripheral.options(pair: pair))
            await transport.close()
            XCTFail("the connection opened although \(method) failed with \(name)", file: file, line: line)
            return nil
        } catch {
            XCTAssertTrue(error.message.contains(message), "BlueZ's message is kept: \(error.message)", file: file, line: line)
            return error
        }
    }

    func testAcquireNotifyNotSupportedFallsBackToStartNotify() async throws {
        let peripheral = try await startPeripheral()
        try peripheral.mock.control("FailNext", ["AcquireNotify", "NotSupported", "injected"])
        let (transport, client) = try await peripheral.connect()
        XCTAssertEqual(transport.notifyPath, .propertiesChanged)
        XCTAssertEqual(transport.writePath, .acquired)
        let echo = try await client.send(OSEcho("notified by signal"))
        XCTAssertEqual(echo, "notified by signal")
        await client.close()
    }

    func testAcquireWriteNotSupportedFallsBackToWriteValue() async throws {
        let peripheral = try await startPeripheral()
        try peripheral.mock.control("FailNext", ["AcquireWrite", "NotSupported", "injected"])
        let (transport, client) = try await peripheral.connect()
        XCTAssertEqual(transport.writePath, .writeValue)
        XCTAssertEqual(transport.notifyPath, .acquired)
        let echo = try await client.send(OSEcho(String(repeating: "v", count: 600)))
        XCTAssertEqual(echo.count, 600)
        await client.close()
        let stats = try peripheral.mock.stats()
        XCTAssertGreaterThanOrEqual(stats["writes_value"] ?? 0, 3)
        XCTAssertEqual(stats["writes_acquired"], 0)
    }

    func testAcquireFailuresAreErrorsNamingTheMethod() async throws {
        let peripheral = try await startPeripheral()
        for method in ["AcquireNotify", "AcquireWrite"] {
            let error = try await openError(peripheral, failing: method, with: "Failed", "injected \(method) failure")
            XCTAssertEqual(error?.kind, .io)
            XCTAssertTrue(error?.message.contains("ble:\(MockedPeripheral.address): \(method) failed") ?? false, "\(String(describing: error))")
        }
        let (_, client) = try await peripheral.connect()
        let echo = try await client.send(OSEcho("after the failures"))
        XCTAssertEqual(echo, "after the failures", "nothing was left acquired by the failed attempts")
        await client.close()
    }

    func testStartNotifyFailureWithoutAcquire() async throws {
        let peripheral = try await startPeripheral(["--no-acquire"])
        let error = try await openError(peripheral, failing: "StartNotify", with: "Failed", "injected notify failure")
        XCTAssertTrue(error?.message.contains("enabling notifications failed") ?? false, "\(String(describing: error))")
    }

    func testWriteValueFailureEndsTheLinkWithAClearError() async throws {
        let peripheral = try await startPeripheral(["--no-acquire"])
        let (_, client) = try await peripheral.connect()
        try peripheral.mock.control("FailNext", ["WriteValue", "Failed", "injected write failure"])
        do {
            _ = try await client.send(OSEcho("lost"))
            XCTFail("the request went out although WriteValue failed")
        } catch {
            guard case .transport(let failure) = error else { return XCTFail("expected a transport error, got \(error)") }
            XCTAssertTrue(failure.message.contains("writing a request failed"), failure.message)
            XCTAssertTrue(failure.message.contains("injected write failure"), failure.message)
        }
        await client.close()
        let (_, again) = try await peripheral.connect()
        let echo = try await again.send(OSEcho("next one"))
        XCTAssertEqual(echo, "next one", "a new connection works")
        await again.close()
    }

    func testPairFailuresSayWhy() async throws {
        let peripheral = try await startPeripheral(["--require-pairing"])
        for (name, expected) in [
            ("AuthenticationFailed", "the device refused Just Works pairing"), ("AuthenticationRejected", "the device rejected pairing"),
            ("AuthenticationCanceled", "pairing was cancelled"), ("AuthenticationTimeout", "timed out"),
            ("ConnectionAttemptFailed", "the device could not be reached"),
        ] {
            let error = try await openError(peripheral, failing: "Pair", with: name, "injected", pair: true)
            XCTAssertTrue(error?.message.contains("pairing failed: \(expected)") ?? false, "\(name): \(String(describing: error))")
        }
    }

    func testRegisterAgentFailure() async throws {
        let peripheral = try await startPeripheral(["--require-pairing"])
        let error = try await openError(peripheral, failing: "RegisterAgent", with: "Failed", "injected agent failure", pair: true)
        XCTAssertTrue(error?.message.contains("registering the pairing agent failed") ?? false, "\(String(describing: error))")
    }

    func testScanFailures() async throws {
        let peripheral = try await startPeripheral()
        for (method, name, expected) in [
            ("SetDiscoveryFilter", "InvalidArguments", "setting the scan filter failed"),
            ("StartDiscovery", "Failed", "starting a scan failed"),
            ("StartDiscovery", "NotReady", "the Bluetooth adapter is not ready to scan"),
        ] {
            let error = try await openError(peripheral, failing: method, with: name, "injected \(method)")
            XCTAssertTrue(error?.message.contains(expected) ?? false, "\(method) \(name): \(String(describing: error))")
        }
    }

    func testConnectAndDisconnectFailures() async throws {
        let peripheral = try await startPeripheral()
        let error = try await openError(peripheral, failing: "Connect", with: "NotSupported", "injected connect failure")
        XCTAssertTrue(error?.message.contains("connect") ?? false, "\(String(describing: error))")
        try peripheral.mock.control("FailNext", ["Disconnect", "Failed", "injected disconnect failure"])
        let (_, client) = try await peripheral.connect()
        let echo = try await client.send(OSEcho("closing fails quietly"))
        XCTAssertEqual(echo, "closing fails quietly")
        await client.close()
    }
}
