import SMP
import SMPBluetooth
import SMPSimulator
import SMPTestSupport
import XCTest

/// `BLETransport` against BlueZoo, a mock of BlueZ's D-Bus API written by others (Samsung; a test
/// tool, neither linked nor shipped), whose second adapter serves a Zephyr-like SMP peripheral
/// (`Tests/Fixtures/bluezoo/smp_peripheral.py`) in front of a virtual device: both write and
/// notify paths, the MTU, and the link the device drops when it resets.
final class BlueZooTransportTests: XCTestCase {
    /// Starts a virtual device and BlueZoo with its peripheral (smp_peripheral.py's `arguments`).
    private func startZoo(_ arguments: [String] = [], configuration: VirtualDeviceConfiguration = VirtualDeviceConfiguration()) async throws -> BlueZoo {
        let server = UDPSimulatorServer(device: VirtualDevice(configuration: configuration), host: "127.0.0.1", port: 0)
        let port = try await server.start()
        addTeardownBlock { await server.stop() }
        return try await startBlueZoo(smpPort: port, peripheralArguments: arguments)
    }

    private func connect(_ zoo: BlueZoo) async throws -> (BLETransport, SMPClient) {
        let transport = try await BLETransport.open(
            .address(BlueZoo.peripheralAddress), options: BLEConnectOptions(timeout: .seconds(10), busAddress: zoo.busAddress))
        return (transport, SMPClient(transport: transport, configuration: SMPClientConfiguration(timeout: .seconds(3))))
    }

    /// BlueZoo hands the application's own sockets to the client; answers longer than a
    /// notification arrive in MTU - 3 pieces and are reassembled.
    func testALongEchoOverAcquiredSocketsAtTheDevicesMTU() async throws {
        try await assertLongEcho(peripheral: ["--mtu", "185"], mtu: 185, writePath: .acquired, notifyPath: .acquired, length: 1000)
    }

    /// A device without AcquireWrite/AcquireNotify: BlueZoo passes their NotSupported on, and the
    /// transport writes with WriteValue and takes notifications as PropertiesChanged signals.
    func testALongEchoOverWriteValueAndStartNotify() async throws {
        try await assertLongEcho(
            peripheral: ["--no-acquire", "--mtu", "100"], mtu: 100, writePath: .writeValue, notifyPath: .propertiesChanged, length: 700)
    }

    /// Connects to a peripheral started with `options`, checks the paths and MTU the transport
    /// took, and echoes `length` bytes (several fragments each way).
    private func assertLongEcho(
        peripheral options: [String], mtu: Int, writePath: BLEWritePath, notifyPath: BLENotifyPath, length: Int
    ) async throws {
        let zoo = try await startZoo(options)
        let (transport, client) = try await connect(zoo)
        XCTAssertEqual(transport.writePath, writePath)
        XCTAssertEqual(transport.notifyPath, notifyPath)
        XCTAssertEqual(transport.mtu, mtu)
        let text = String(repeating: "z", count: length)
        let echo = try await client.send(OSEcho(text))
        XCTAssertEqual(echo, text, zoo.log)
        await client.close()
    }

    /// After answering a reset the device drops the link: the next request fails at once with the
    /// lost link, not after its timeout.
    func testTheLinkDroppedByAResetEndsTheTransport() async throws {
        var configuration = VirtualDeviceConfiguration()
        configuration.resetDelay = .milliseconds(300)
        let zoo = try await startZoo(["--reboot-time", "1.0"], configuration: configuration)
        let (_, client) = try await connect(zoo)
        _ = try await client.send(OSReset())
        try await Task.sleep(for: .seconds(1))
        // A request that waited for its timeout would end with a timeout, not with the lost link.
        do {
            _ = try await client.send(OSEcho("after the reset"))
            XCTFail("a request succeeded over the link the reset dropped\n\(zoo.log)")
        } catch {
            guard case .transport(let transportError) = error else { return XCTFail("not a link error: \(error)") }
            XCTAssertTrue(transportError.message.contains("link was lost"), transportError.message)
        }
        await client.close()
        let (_, again) = try await connect(zoo)
        let echo = try await again.send(OSEcho("reconnected"))
        XCTAssertEqual(echo, "reconnected")
        await again.close()
    }
}
