import Logging
import NIOCore
import NIOPosix

/// Serves a ``NordicDFUPeripheral`` to the BlueZ mock (`mock_bluez.py --dfu-device`) over
/// loopback UDP: each datagram from the mock is a ``NordicDFUBridgeEvent`` (a write to a
/// characteristic, a link made or ended), each answer a ``NordicDFUBridgeCommand`` (a
/// notification, a reset, a reboot into the bootloader) sent to the address the last event came
/// from. Events are handled one at a time in arrival order and the commands leave in the order
/// they were made; loopback keeps that order. docs/ble-testing.md describes the bridge.
///
/// ```swift
/// let server = NordicDFUDatagramServer(peripheral: NordicDFUPeripheral(legacy: LegacyDFUTarget()), port: 0)
/// let port = try await server.start()
/// // mock_bluez.py --dfu-device C0:FF:EE:00:00:01,DfuTarg,PORT,legacy
/// …
/// await server.stop()
/// ```
public actor NordicDFUDatagramServer {
    /// The address asked for (IPv4 or IPv6 literal, or a local host name).
    public nonisolated var host: String { socket.host }
    /// The port asked for; 0 picks a free one.
    public nonisolated var requestedPort: Int { socket.requestedPort }

    /// The device served, with its bootloader's state.
    public var peripheral: NordicDFUPeripheral { get async { await bridge.peripheral } }
    /// Where the mock reaches the server while it runs, e.g. `udp:127.0.0.1:40000`.
    public var endpoint: String? { get async { await socket.endpoint } }
    /// Datagrams received so far.
    public var receivedDatagrams: Int { get async { await socket.receivedDatagrams } }

    private let bridge: Bridge
    /// The socket, served as an SMP device's is: each datagram handed to the bridge, its answers
    /// sent back to the sender in order.
    private let socket: UDPSimulatorServer

    /// Creates a server; nothing is bound until ``start()``.
    ///
    /// - Parameters:
    ///   - peripheral: the device to serve.
    ///   - host: the local address to bind (the mock sends to 127.0.0.1).
    ///   - port: the UDP port; 0 picks a free one.
    public init(
        peripheral: NordicDFUPeripheral, host: String = "127.0.0.1", port: Int = 0,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "nordic.dfu.simulator")
    ) {
        bridge = Bridge(peripheral: peripheral, logger: logger)
        socket = UDPSimulatorServer(handler: bridge, host: host, port: port, eventLoopGroup: eventLoopGroup, logger: logger)
    }

    /// Binds the socket and starts serving; returns the bound port.
    @discardableResult
    public func start() async throws(SimulatorServerError) -> Int {
        try await socket.start()
    }

    /// Stops serving and closes the socket.
    public func stop() async {
        await socket.stop()
    }

    /// The peripheral behind the socket: each datagram an event, its commands the answers.
    private actor Bridge: SimulatedFrameHandler {
        private(set) var peripheral: NordicDFUPeripheral
        private let logger: Logger

        init(peripheral: NordicDFUPeripheral, logger: Logger) {
            self.peripheral = peripheral
            self.logger = logger
        }

        func deliveries(for frame: [UInt8]) async -> [SimulatedDelivery] {
            guard let event = NordicDFUBridgeEvent(datagram: frame) else {
                logger.debug("Nordic DFU bridge: ignored a malformed datagram of \(frame.count) bytes")
                peripheral.ignoreMalformedDatagram()
                return []
            }
            return peripheral.handle(event).map { command in
                logger.trace("Nordic DFU bridge: \(event) → \(command)")
                return SimulatedDelivery(bytes: command.datagram)
            }
        }
    }
}
