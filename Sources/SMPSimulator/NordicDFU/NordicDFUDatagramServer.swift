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
    public nonisolated let host: String
    /// The port asked for; 0 picks a free one.
    public nonisolated let requestedPort: Int

    /// The device served, with its bootloader's state.
    public private(set) var peripheral: NordicDFUPeripheral
    /// The bound address while the server runs.
    public private(set) var localAddress: SocketAddress?
    /// Datagrams received so far.
    public private(set) var receivedDatagrams = 0

    private let eventLoopGroup: any EventLoopGroup
    private let logger: Logger
    private var channel: (any Channel)?
    private var processor: Task<Void, Never>?
    private var starting = false

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
        self.peripheral = peripheral
        self.host = host
        self.requestedPort = port
        self.eventLoopGroup = eventLoopGroup
        self.logger = logger
    }

    /// The bound port while the server runs.
    public var port: Int? { localAddress?.port }

    /// Where the mock reaches the server while it runs, e.g. `udp:127.0.0.1:40000`.
    public var endpoint: String? { localAddress?.udpEndpoint }

    /// Binds the socket and starts serving; returns the bound port.
    @discardableResult
    public func start() async throws(SimulatorServerError) -> Int {
        guard channel == nil, !starting else { throw SimulatorServerError(.alreadyStarted, "\(describe()): already running") }
        starting = true
        defer { starting = false }
        guard (0...65_535).contains(requestedPort) else {
            throw SimulatorServerError(.invalidAddress, "\(describe()): port \(requestedPort) is out of range 0–65535")
        }
        let (stream, continuation) = AsyncStream<ReceivedDatagram>.makeStream()
        let handler = SimulatorDatagramHandler(continuation: continuation, logger: logger)
        let channel: any Channel
        do {
            channel = try await DatagramBootstrap(group: eventLoopGroup)
                .channelOption(.socketOption(.so_rcvbuf), value: 1 << 20)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(handler) }
                }
                .bind(host: host, port: requestedPort)
                .get()
        } catch {
            continuation.finish()
            throw UDPSimulatorServer.bindError(error, where: describe())
        }
        self.channel = channel
        localAddress = channel.localAddress
        logger.debug("virtual Nordic DFU device listening on \(channel.localAddress?.udpEndpoint ?? describe())")
        processor = Task { await self.serve(stream, channel: channel) }
        return channel.localAddress?.port ?? requestedPort
    }

    /// Stops serving and closes the socket.
    public func stop() async {
        guard let channel else { return }
        let processor = self.processor
        self.channel = nil
        self.processor = nil
        localAddress = nil
        try? await channel.close()
        await processor?.value
    }

    private func serve(_ datagrams: AsyncStream<ReceivedDatagram>, channel: any Channel) async {
        for await datagram in datagrams {
            receivedDatagrams += 1
            guard let event = NordicDFUBridgeEvent(datagram: datagram.bytes) else {
                logger.debug("Nordic DFU bridge: ignored a malformed datagram of \(datagram.bytes.count) bytes")
                peripheral.ignoreMalformedDatagram()
                continue
            }
            for command in peripheral.handle(event) {
                logger.trace("Nordic DFU bridge: \(event) → \(command)")
                let envelope = AddressedEnvelope(remoteAddress: datagram.sender, data: channel.allocator.buffer(bytes: command.datagram))
                channel.writeAndFlush(envelope, promise: nil)
            }
        }
    }

    private nonisolated func describe() -> String {
        UDPSimulatorServer.describe(host: host, port: requestedPort)
    }
}
