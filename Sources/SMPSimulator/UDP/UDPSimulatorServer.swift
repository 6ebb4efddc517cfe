#if canImport(Glibc)
import Glibc
#endif
import Logging
import NIOCore
import NIOPosix
import SMP

/// Serves a ``VirtualDevice`` (or any ``SimulatedFrameHandler``) over UDP as Zephyr's SMP UDP
/// transport does: every datagram is one frame, processed in arrival order, and every response is
/// sent as its own datagram to the sender, through the device's fault injection. Responses leave
/// in the order the device produced them, each after its delivery's delay at the earliest.
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

    private let eventLoopGroup: any EventLoopGroup
    private let logger: Logger
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
    public init(
        device: VirtualDevice, host: String = "127.0.0.1", port: Int = 1337,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "smp.simulator.udp")
    ) {
        self.init(handler: device, host: host, port: port, eventLoopGroup: eventLoopGroup, logger: logger)
    }

    /// Creates a server for any frame handler; nothing is bound until ``start()``.
    public init(
        handler: any SimulatedFrameHandler, host: String = "127.0.0.1", port: Int = 1337,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "smp.simulator.udp")
    ) {
        self.handler = handler
        self.host = host
        self.requestedPort = port
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
        try? await channel.close()
        await processor?.value
    }

    private func serve(_ datagrams: AsyncStream<ReceivedDatagram>, channel: any Channel) async {
        for await datagram in datagrams {
            receivedDatagrams += 1
            let deliveries = await handler.deliveries(for: datagram.bytes)
            for delivery in deliveries {
                let envelope = AddressedEnvelope(
                    remoteAddress: datagram.sender, data: channel.allocator.buffer(bytes: delivery.bytes))
                let (seconds, attoseconds) = delivery.delay.components
                let delay = TimeAmount.nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
                // Tasks scheduled for the same deadline run in the order they were scheduled.
                let deadline = schedule.sendTime(earliest: .now() + max(.zero, delay))
                channel.eventLoop.scheduleTask(deadline: deadline) { channel.writeAndFlush(envelope, promise: nil) }
            }
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
