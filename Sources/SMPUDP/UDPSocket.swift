#if canImport(Glibc)
import Glibc
#endif
import NIOCore
import NIOPosix
import SMP
import Synchronization

/// A connected UDP socket to one device, as ``UDPTransport`` and ``DTLSTransport`` use it: the
/// endpoint's name and checks, the host resolved, received datagrams as a stream, and an ICMP
/// "port unreachable" (nothing listening) turned into a clear link error at once.
final class UDPSocket: Sendable {
    /// Where the socket goes, for messages (`udp:HOST:PORT`).
    let endpoint: String
    /// The resolved address datagrams go to.
    let remoteAddress: SocketAddress
    /// Received datagrams; the stream finishes when the socket closes and throws an
    /// ``SMPTransportError`` when it fails. It is iterated once.
    let datagrams: AsyncThrowingStream<[UInt8], any Error>

    private let channel: any Channel
    private let receiver: DatagramReceiver

    private init(endpoint: String, remoteAddress: SocketAddress, channel: any Channel, receiver: DatagramReceiver,
                 datagrams: AsyncThrowingStream<[UInt8], any Error>) {
        self.endpoint = endpoint
        self.remoteAddress = remoteAddress
        self.channel = channel
        self.receiver = receiver
        self.datagrams = datagrams
    }

    /// The bytes of IP and UDP headers each datagram carries on this socket.
    var ipAndUDPHeaders: Int { remoteAddress.protocol == .inet6 ? 48 : 28 }

    /// Whether any datagram has come from the device.
    var hasReceived: Bool { receiver.hasReceived.load(ordering: .relaxed) }

    /// `udp:HOST:PORT`, brackets around an IPv6 address.
    static func endpoint(host: String, port: Int) -> String {
        "udp:\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }

    /// Checks the port and the MTU, resolves `host` and opens a connected UDP socket to it.
    static func open(host: String, port: Int, mtu: Int, group: any EventLoopGroup) async throws(SMPTransportError) -> UDPSocket {
        let endpoint = endpoint(host: host, port: port)
        guard (1...65_535).contains(port) else {
            throw SMPTransportError(.notFound, "\(endpoint): port \(port) is out of range 1–65535")
        }
        guard mtu >= 128 else {
            throw SMPTransportError(.unavailable, "\(endpoint): an MTU of \(mtu) bytes is too small (at least 128)")
        }
        let address = try await resolve(host: host, port: port, endpoint: endpoint)
        let (stream, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
        let receiver = DatagramReceiver(endpoint: endpoint, continuation: continuation)
        do {
            let channel = try await DatagramBootstrap(group: group)
                .channelOption(.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: 65_536))
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(receiver) }
                }
                .connect(to: address)
                .get()
            return UDPSocket(endpoint: endpoint, remoteAddress: address, channel: channel, receiver: receiver, datagrams: stream)
        } catch {
            continuation.finish()
            throw SMPTransportError(.io, "\(endpoint): cannot open a UDP socket: \(error)")
        }
    }

    /// Sends one datagram.
    func send(_ datagram: [UInt8]) async throws(SMPTransportError) {
        let buffer = channel.allocator.buffer(bytes: datagram)
        do {
            try await channel.writeAndFlush(AddressedEnvelope(remoteAddress: remoteAddress, data: buffer)).get()
        } catch let error as IOError where error.errnoCode == ECONNREFUSED {
            throw DatagramReceiver.refused(endpoint)
        } catch {
            throw SMPTransportError(.io, "\(endpoint): sending failed: \(error)")
        }
    }

    /// Closes the socket; ``datagrams`` finishes. Idempotent.
    func close() async {
        try? await channel.close()
    }

    private static func resolve(host: String, port: Int, endpoint: String) async throws(SMPTransportError) -> SocketAddress {
        // A numeric address needs no resolver: no thread pool started for it (a faster start).
        if let address = try? SocketAddress(ipAddress: host, port: port) { return address }
        do {
            return try await NIOThreadPool.singleton.runIfActive {
                try SocketAddress.makeAddressResolvingHost(host, port: port)
            }
        } catch {
            throw SMPTransportError(
                .notFound, "\(endpoint): cannot resolve host \"\(host)\"",
                hint: "check the spelling, or give an IPv4/IPv6 address (an IPv6 link-local address needs its interface, e.g. fe80::1%eth0)")
        }
    }
}

/// Feeds received datagrams into the socket's stream and turns socket errors into link errors.
private final class DatagramReceiver: ChannelInboundHandler, Sendable {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>

    let endpoint: String
    let continuation: AsyncThrowingStream<[UInt8], any Error>.Continuation
    let hasReceived = Atomic(false)

    init(endpoint: String, continuation: AsyncThrowingStream<[UInt8], any Error>.Continuation) {
        self.endpoint = endpoint
        self.continuation = continuation
    }

    static func refused(_ endpoint: String) -> SMPTransportError {
        SMPTransportError(
            .refused, "\(endpoint): nothing is listening there (connection refused)",
            hint: "check the address and port, and that the device runs an SMP UDP server (CONFIG_MCUMGR_TRANSPORT_UDP)")
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var envelope = unwrapInboundIn(data)
        hasReceived.store(true, ordering: .relaxed)
        continuation.yield(envelope.data.readBytes(length: envelope.data.readableBytes) ?? [])
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? IOError, error.errnoCode == ECONNREFUSED {
            continuation.finish(throwing: Self.refused(endpoint))
        } else {
            continuation.finish(throwing: SMPTransportError(.io, "\(endpoint): \(error)"))
        }
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        continuation.finish()
    }
}
