import SMP
import SMPBluetooth
import SMPTestSupport
import XCTest

/// `BLETransport` against the BlueZ mock: both write and notify paths, MTUs, link loss, silence.
final class BLETransportTests: XCTestCase {
    func testEchoOverAcquiredSockets() async throws {
        let peripheral = try await startPeripheral()
        let (transport, client) = try await peripheral.connect()
        XCTAssertEqual(transport.writePath, .acquired)
        XCTAssertEqual(transport.notifyPath, .acquired)
        XCTAssertEqual(transport.mtu, 247)
        let echo = try await client.send(OSEcho("hello over ble"))
        XCTAssertEqual(echo, "hello over ble")
        await client.close()
        let stats = try peripheral.mock.stats()
        XCTAssertGreaterThan(stats["writes_acquired"] ?? 0, 0)
        XCTAssertEqual(stats["writes_value"], 0)
    }
}

extension BLETransportTests {
    func testEchoOverWriteValueAndStartNotifyWithoutAcquire() async throws {
        let peripheral = try await startPeripheral(["--no-acquire"])
        let (transport, client) = try await peripheral.connect()
        XCTAssertEqual(transport.writePath, .writeValue)
        XCTAssertEqual(transport.notifyPath, .propertiesChanged)
        let text = String(repeating: "w", count: 700)
        let echo = try await client.send(OSEcho(text))
        XCTAssertEqual(echo, text)
        await client.close()
        let stats = try peripheral.mock.stats()
        XCTAssertGreaterThanOrEqual(stats["writes_value"] ?? 0, 3, "700 bytes take several 244-byte writes")
        XCTAssertEqual(stats["writes_acquired"], 0)
        XCTAssertEqual(stats["oversize_drops"], 0)
    }

    func testLongEchoAtEachMTU() async throws {
        for mtu in [23, 247, 498] {
            let peripheral = try await startPeripheral(["--mtu", String(mtu)])
            let (transport, client) = try await peripheral.connect()
            XCTAssertEqual(transport.mtu, mtu)
            XCTAssertEqual(transport.defaultParameters.bufferSize, mtu - 3)
            let text = String(repeating: "m", count: 1000)
            let echo = try await client.send(OSEcho(text))
            XCTAssertEqual(echo, text, "MTU \(mtu)")
            await client.close()
            let stats = try peripheral.mock.stats()
            XCTAssertEqual(stats["oversize_drops"], 0, "MTU \(mtu)")
            XCTAssertGreaterThan(stats["notifications"] ?? 0, 1000 / (mtu - 3), "the answer arrives in MTU-3 pieces at MTU \(mtu)")
        }
    }

    func testMTUOptionCapsTheNegotiatedMTU() async throws {
        let peripheral = try await startPeripheral(["--mtu", "498"])
        let (transport, client) = try await peripheral.connect(mtu: 100)
        XCTAssertEqual(transport.mtu, 100)
        let text = String(repeating: "c", count: 400)
        let echo = try await client.send(OSEcho(text))
        XCTAssertEqual(echo, text)
        await client.close()
    }

    func testMTUFromAcquireWriteWithoutTheMTUProperty() async throws {
        let peripheral = try await startPeripheral(["--mtu", "185", "--no-mtu-property"])
        let (transport, client) = try await peripheral.connect()
        XCTAssertEqual(transport.mtu, 185)
        await client.close()
    }

    func testConnectsByName() async throws {
        let peripheral = try await startPeripheral()
        let (transport, client) = try await peripheral.connect(.name(MockedPeripheral.name))
        XCTAssertEqual(transport.device.address, MockedPeripheral.address)
        let echoed = try await client.send(OSEcho("by name"))
        XCTAssertEqual(echoed, "by name")
        await client.close()
    }

    func testLinkLossFailsThePendingRequestAtOnce() async throws {
        let peripheral = try await startPeripheral()
        let (_, client) = try await peripheral.connect(client: SMPClientConfiguration(timeout: .seconds(20)))
        try peripheral.mock.control("SetResponder", ["silent"])
        // A request that waited for its 20 s timeout would end with a timeout, not with the lost link.
        async let answer = client.send(OSEcho("never answered"))
        try await Task.sleep(for: .milliseconds(300))
        try peripheral.mock.control("DropLink")
        do {
            _ = try await answer
            XCTFail("the request succeeded after the link dropped")
        } catch let error as SMPError {
            guard case .transport(let transportError) = error else { return XCTFail("not a link error: \(error)") }
            XCTAssertTrue(transportError.message.contains("link was lost"), transportError.message)
        }
        await client.close()
    }

    func testSilentDeviceTimesOut() async throws {
        let peripheral = try await startPeripheral()
        let (_, client) = try await peripheral.connect(client: SMPClientConfiguration(timeout: .milliseconds(500), retries: 0))
        try peripheral.mock.control("SetResponder", ["silent"])
        do {
            _ = try await client.send(OSEcho("anyone?"))
            XCTFail("a silent device answered")
        } catch {
            guard case .timeout = error else { return XCTFail("expected a timeout, got \(error)") }
        }
        await client.close()
    }

    func testInjectedConnectFailureIsReported() async throws {
        let peripheral = try await startPeripheral()
        try peripheral.mock.control("FailNext", ["Connect", "AuthenticationFailed", "injected"])
        do {
            _ = try await peripheral.connect()
            XCTFail("connected despite the injected failure")
        } catch let error as SMPTransportError {
            XCTAssertEqual(error.kind, .permissionDenied)
            XCTAssertTrue(error.message.contains("requires an encrypted, paired link"), error.message)
            XCTAssertTrue(error.hint?.contains("pair=1") ?? false, String(describing: error.hint))
        }
    }

    func testTransientConnectFailureIsRetried() async throws {
        let peripheral = try await startPeripheral()
        try peripheral.mock.control("FailNext", ["Connect", "Failed", "le-connection-abort-by-local"])
        let (_, client) = try await peripheral.connect()
        let echoed = try await client.send(OSEcho("second try"))
        XCTAssertEqual(echoed, "second try")
        await client.close()
    }

    func testPairingOnRequest() async throws {
        let peripheral = try await startPeripheral(["--require-pairing"])
        do {
            _ = try await peripheral.connect()
            XCTFail("an unpaired connection was accepted")
        } catch let error as SMPTransportError {
            XCTAssertTrue(error.message.contains("the device requires an encrypted, paired link"), error.message)
        }
        let transport = try await BLETransport.open(.address(MockedPeripheral.address), options: peripheral.options(pair: true))
        let client = SMPClient(transport: transport, configuration: SMPClientConfiguration(timeout: .seconds(3)))
        let echoed = try await client.send(OSEcho("paired"))
        XCTAssertEqual(echoed, "paired")
        await client.close()
    }

    func testUnknownDeviceIsNotFoundWithinTheTimeout() async throws {
        let peripheral = try await startPeripheral()
        do {
            _ = try await BLETransport.open(.address("C0:FF:EE:99:99:99"), options: peripheral.options(timeout: .seconds(1)))
            XCTFail("found a device that does not exist")
        } catch {
            XCTAssertEqual(error.kind, .notFound)
            XCTAssertTrue(error.message.contains("no device with address C0:FF:EE:99:99:99"), error.message)
        }
    }
}
