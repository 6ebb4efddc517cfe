import SMP
import SMPBluetooth
import SMPSimulator
import SMPTestSupport
import XCTest

/// A virtual SMP device on a loopback UDP port behind the BlueZ mock's peripheral.
struct MockedPeripheral {
    static let address = "C0:FF:EE:00:00:01"
    static let name = "Zephyr"

    let mock: BlueZMock
    let server: UDPSimulatorServer
    let device: VirtualDevice

    /// Options that reach the mock's bus, with a short connect timeout.
    func options(
        mtu: Int? = nil, pair: Bool = false, passkey: UInt32? = nil, acceptsAnyNumber: Bool = false,
        interaction: (any BLEPairingInteraction)? = nil, timeout: Duration = .seconds(5)
    ) -> BLEConnectOptions {
        BLEConnectOptions(
            mtu: mtu, pair: pair, passkey: passkey, acceptsAnyNumber: acceptsAnyNumber, interaction: interaction, timeout: timeout,
            busAddress: mock.busAddress)
    }

    /// Opens a transport to the peripheral and wraps a client around it.
    func connect(
        _ selector: BLEDeviceFilter.Selector = .address(address), mtu: Int? = nil,
        client configuration: SMPClientConfiguration = SMPClientConfiguration(timeout: .seconds(3))
    ) async throws -> (BLETransport, SMPClient) {
        let transport = try await BLETransport.open(selector, options: options(mtu: mtu))
        return (transport, SMPClient(transport: transport, configuration: configuration))
    }
}

extension XCTestCase {
    /// Starts a virtual device and the mock with it as `C0:FF:EE:00:00:01` "Zephyr", plus `arguments`.
    func startPeripheral(_ arguments: [String] = [], file: StaticString = #filePath, line: UInt = #line) async throws -> MockedPeripheral {
        let device = VirtualDevice()
        let server = UDPSimulatorServer(device: device, host: "127.0.0.1", port: 0)
        let port = try await server.start()
        addTeardownBlock { await server.stop() }
        let mock = try await startBlueZMock(
            ["--device", "\(MockedPeripheral.address),\(MockedPeripheral.name),\(port)"] + arguments, file: file, line: line)
        return MockedPeripheral(mock: mock, server: server, device: device)
    }
}
