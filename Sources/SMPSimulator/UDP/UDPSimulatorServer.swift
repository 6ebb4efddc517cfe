#if canImport(Glibc)
import Glibc
#endif
import Logging
import NIOCore
import NIOPosix
import SMP
import SMPUDP

/// Serves a ``VirtualDevice`` (or any ``SimulatedFrameHandler``) over UDP as Zephyr's SMP UDP
/// transport does: every datagram is one frame, processed in arrival order, and every response is
/// sent as its own datagram to the sender, through the device's fault injection. Responses leave
/// in the order the device produced them, each after its delivery's delay at the earliest.
///
/// With a ``DTLSContext`` (server role) it serves DTLS 1.2 instead, as Zephyr's
/// `CONFIG_MCUMGR_TRANSPORT_UDP_DTLS` does: one session per peer address, each new peer asked for
/// a HelloVerifyRequest cookie, handshake flights retransmitted on the sessions' timers, every
/// frame one record; plain datagrams are ignored. A session ends with the peer's close_notify,
/// a failed handshake, or ``dtlsIdleTimeout`` of silence.
///
/// ```swift
/// let server = UDPSimulatorServer(device: VirtualDevice(), host: "127.0.0.1", port: 0)
/// let port = try await server.start()   // a free port
/// …
/// await server.stop()
/// ```
public actor UDPSimulatorServer {
    /// What answers the datagrams (the device served).
    public nonisolated let handler: any SimulatedFrameHandler
    /// The address asked for (IPv4 or IPv6 literal, or a local host name).
    public nonisolated let host: String
    /// The port asked for; 0 picks a free one.
    public nonisolated let requestedPort: Int

    /// The bound address while the server runs.
    public private(set) var localAddress: SocketAddress?
    /// Datagrams received so far.
    public private(set) var receivedDatagrams = 0
    /// The DTLS configuration, nil for plain UDP.
    public nonisolated let dtls: DTLSContext?
    /// How long a DTLS peer may stay silent before its session is dropped.
    public nonisolated let dtlsIdleTimeout: Duration
    /// DTLS handshakes completed so far.
    public internal(set) var dtlsHandshakesCompleted = 0
    /// Datagrams ignored because they were not DTLS while DTLS is on.
    public internal(set) var ignoredPlainDatagrams = 0
    /// The DTLS session of each peer address.
    var dtlsPeers: [SocketAddress: DTLSPeer] = [:]
    /// Runs the DTLS sessions' timers while the server runs.
    var dtlsTimer: Task<Void, Never>?

    private let eventLoopGroup: any EventLoopGroup
    let logger: Logger
    private var channel: (any Channel)?
    private var processor: Task<Void, Never>?
    private var starting = false
    private var schedule = InOrderSchedule<NIODeadline>()

    /// Creates a server for a device; nothing is bound until ``start()``.
    ///
    /// - Parameters:
    ///   - device: the device to serve.
    ///   - host: the local address to bind, e.g. `127.0.0.1`, `::1`, `0.0.0.0`.
    ///   - port: the UDP port (Zephyr's default is 1337); 0 picks a free port.
    ///   - dtls: a server-role DTLS context to serve DTLS instead of plain UDP.
    ///   - dtlsIdleTimeout: how long a DTLS peer may stay silent before its session is dropped.
    public init(
        device: VirtualDevice, host: String = "127.0.0.1", port: Int = 1337, dtls: DTLSContext? = nil,
        dtlsIdleTimeout: Duration = .seconds(30),
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "smp.simulator.udp")
    ) {
        self.init(
            handler: device, host: host, port: port, dtls: dtls, dtlsIdleTimeout: dtlsIdleTimeout,
            eventLoopGroup: eventLoopGroup, logger: logger)
    }

    /// Creates a server for any frame handler; nothing is bound until ``start()``.
    public init(
        handler: any SimulatedFrameHandler, host: String = "127.0.0.1", port: Int = 1337, dtls: DTLSContext? = nil,
        dtlsIdleTimeout: Duration = .seconds(30),
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "smp.simulator.udp")
    ) {
        self.handler = handler
        self.host = host
        self.requestedPort = port
        self.dtls = dtls
        self.dtlsIdleTimeout = dtlsIdleTimeout
        self.eventLoopGroup = eventLoopGroup
        self.logger = logger
    }

    /// The bound port while the server runs.
    public var port: Int? { localAddress?.port }

    /// Where clients reach the server while it runs, e.g. `udp:127.0.0.1:1337` or `udp:[::1]:1337`.
    public var endpoint: String? { localAddress?.udpEndpoint }

    /// Binds the socket and starts serving; returns the bound port.
    @discardableResult
    public func start() async throws(SimulatorServerError) -> Int {
        guard channel == nil, !starting else {
            throw SimulatorServerError(.alreadyStarted, "\(describe()): already running")
        }
        starting = true
        defer { starting = false }
        let socket = try await SimulatorDatagramSocket.bind(
            host: host, port: requestedPort, group: eventLoopGroup, logger: logger, endpoint: describe())
        let channel = socket.channel
        self.channel = channel
        localAddress = channel.localAddress
        logger.debug("virtual SMP device listening on \(endpoint ?? describe())")
        processor = Task { await self.serve(socket.datagrams, channel: channel) }
        if dtls != nil { dtlsTimer = Task { await self.runDTLSTimers(channel: channel) } }
        return channel.localAddress?.port ?? requestedPort
    }

    /// Serves until the calling task is cancelled (Ctrl-C in `smpctl simulate`), starting first
    /// if needed, then stops.
    public func run() async throws(SimulatorServerError) {
        if channel == nil { try await start() }
        guard let processor else { return }
        await withTaskCancellationHandler {
            await processor.value
        } onCancel: {
            Task { await self.stop() }
        }
        await stop()
    }

    /// Stops serving and closes the socket; responses still waiting for a delay are not sent.
    public func stop() async {
        guard let channel else { return }
        let processor = self.processor
        self.channel = nil
        self.processor = nil
        localAddress = nil
        dtlsTimer?.cancel()
        dtlsTimer = nil
        dtlsPeers = [:]
        try? await channel.close()
        await processor?.value
    }

    private func serve(_ datagrams: AsyncStream<ReceivedDatagram>, channel: any Channel) async {
        for await datagram in datagrams {
            receivedDatagrams += 1
            if dtls != nil {
                await serveDTLS(datagram, channel: channel)
            } else {
                await answer(datagram.bytes, to: datagram.sender, channel: channel)
            }
        }
    }

    /// Hands one SMP frame to the device and sends each of its answers after its delay, sealed
    /// by the peer's DTLS session when DTLS is on. A device that resets forgets its DTLS sessions,
    /// as Zephyr does (they live in RAM): after the answer, every peer must shake hands again.
    func answer(_ frame: [UInt8], to peer: SocketAddress, channel: any Channel) async {
        let device = dtls == nil ? nil : handler as? VirtualDevice
        let resetsBefore = await device?.resetCount
        for delivery in await handler.deliveries(for: frame) {
            guard let datagrams = dtls == nil ? [delivery.bytes] : sealDTLS(delivery.bytes, to: peer) else { return }
            send(datagrams, to: peer, after: delivery.delay, channel: channel)
        }
        if let device, await device.resetCount != resetsBefore, !dtlsPeers.isEmpty {
            logger.debug("the device resets: \(dtlsPeers.count) DTLS session(s) forgotten")
            dtlsPeers.removeAll()
        }
    }

    /// Sends datagrams to `peer`, in order, after `delay` at the earliest and after everything
    /// sent before them.
    func send(_ datagrams: [[UInt8]], to peer: SocketAddress, after delay: Duration = .zero, channel: any Channel) {
        let (seconds, attoseconds) = delay.components
        let nanoseconds = TimeAmount.nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        for bytes in datagrams {
            let envelope = AddressedEnvelope(remoteAddress: peer, data: channel.allocator.buffer(bytes: bytes))
            // Tasks scheduled for the same deadline run in the order they were scheduled.
            let deadline = schedule.sendTime(earliest: .now() + max(.zero, nanoseconds))
            channel.eventLoop.scheduleTask(deadline: deadline) { channel.writeAndFlush(envelope, promise: nil) }
        }
    }

    private nonisolated func describe() -> String {
        Self.describe(host: host, port: requestedPort)
    }

    /// `udp:HOST:PORT`, or `udp:[IPv6]:PORT`.
    static func describe(host: String, port: Int) -> String {
        "udp:\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }

    static func bindError(_ error: any Error, where endpoint: String) -> SimulatorServerError {
        if let error = error as? IOError {
            switch error.errnoCode {
            case EADDRINUSE:
                return SimulatorServerError(.addressInUse, "\(endpoint): the port is already in use")
            case EACCES, EPERM:
                return SimulatorServerError(.permissionDenied, "\(endpoint): permission denied (ports below 1024 need privileges)")
            case EADDRNOTAVAIL, EAFNOSUPPORT:
                return SimulatorServerError(.invalidAddress, "\(endpoint): not a local address of this machine")
            default: break
            }
        }
        if error is SocketAddressError || error is SocketAddressError.UnknownHost {
            return SimulatorServerError(.invalidAddress, "\(endpoint): cannot resolve the address: \(error)")
        }
        return SimulatorServerError(.io, "\(endpoint): cannot bind: \(error)")
    }
}

extension SocketAddress {
    /// `udp:127.0.0.1:1337` or `udp:[::1]:1337`; nil for an address without IP and port.
    var udpEndpoint: String? {
        guard let ip = ipAddress, let port else { return nil }
        return UDPSimulatorServer.describe(host: ip, port: port)
    }
}
