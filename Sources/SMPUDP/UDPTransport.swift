#if canImport(Glibc)
import Glibc
#endif
import NIOCore
import NIOPosix
import SMP

/// SMP over UDP: one message per datagram, to port 1337 by default.
///
/// The socket is connected, so an ICMP "port unreachable" (nothing listening) ends the link at once
/// with a clear error instead of a timeout. IPv4, IPv6 (with `%scope`) and host names are accepted.
public final class UDPTransport: SMPTransport {
    /// Zephyr's default SMP UDP port.
    public static let defaultPort = 1337
    /// The link MTU assumed when none is given.
    public static let defaultMTU = 1500

    public let endpoint: String
    public let maximumMessageSize: Int
    public let inbound: AsyncThrowingStream<[UInt8], any Error>

    /// Zephyr's defaults with the UDP transport enabled: 2048-byte buffers, 2 of them.
    public var defaultParameters: MCUmgrParameters { MCUmgrParameters(bufferSize: 2048, bufferCount: 2) }

    /// The resolved address datagrams go to.
    public let remoteAddress: SocketAddress

    private let channel: any Channel

    private init(endpoint: String, remoteAddress: SocketAddress, mtu: Int, channel: any Channel,
                 inbound: AsyncThrowingStream<[UInt8], any Error>) {
        self.endpoint = endpoint
        self.remoteAddress = remoteAddress
        let ipAndUDPHeaders = remoteAddress.protocol == .inet6 ? 48 : 28
        self.maximumMessageSize = min(mtu - ipAndUDPHeaders, 65_535 + SMPHeader.size)
        self.channel = channel
        self.inbound = inbound
    }

    /// Resolves `host` and opens a connected UDP socket to it.
    ///
    /// - Parameters:
    ///   - host: an IPv4 or IPv6 address (`fe80::1%eth0` for a scoped link-local one) or a host name.
    ///   - port: the device's SMP port.
    ///   - mtu: the link MTU; messages are kept below it minus the IP and UDP headers.
    ///   - group: the SwiftNIO event loops the socket runs on.
    public static func connect(
        host: String, port: Int = defaultPort, mtu: Int = defaultMTU,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws(SMPTransportError) -> UDPTransport {
        let endpoint = "udp:\(host.contains(":") ? "[\(host)]" : host):\(port)"
        guard (1...65_535).contains(port) else {
            throw SMPTransportError(.notFound, "\(endpoint): port \(port) is out of range 1–65535")
        }
        guard mtu >= 128 else {
            throw SMPTransportError(.unavailable, "\(endpoint): an MTU of \(mtu) bytes is too small (at least 128)")
        }
        let address = try await resolve(host: host, port: port, endpoint: endpoint)
        let (stream, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
        let handler = DatagramReceiver(endpoint: endpoint, continuation: continuation)
        do {
            let channel = try await DatagramBootstrap(group: group)
                .channelOption(.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: 65_536))
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(handler) }
                }
                .connect(to: address)
                .get()
            return UDPTransport(endpoint: endpoint, remoteAddress: address, mtu: mtu, channel: channel, inbound: stream)
        } catch {
            continuation.finish()
            throw SMPTransportError(.io, "\(endpoint): cannot open a UDP socket: \(error)")
        }
    }

    public func send(_ message: [UInt8]) async throws {
        let buffer = channel.allocator.buffer(bytes: message)
        do {
            try await channel.writeAndFlush(AddressedEnvelope(remoteAddress: remoteAddress, data: buffer)).get()
        } catch let error as IOError where error.errnoCode == ECONNREFUSED {
            throw DatagramReceiver.refused(endpoint)
        } catch {
            throw SMPTransportError(.io, "\(endpoint): sending failed: \(error)")
        }
    }

    public func close() async {
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

/// Feeds received datagrams into the transport's stream and turns socket errors into link errors.
private final class DatagramReceiver: ChannelInboundHandler, Sendable {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>

    let endpoint: String
    let continuation: AsyncThrowingStream<[UInt8], any Error>.Continuation

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
