import Logging
import NIOCore
import NIOPosix

/// A datagram received by the simulator, with the address to answer.
struct ReceivedDatagram: Sendable {
    var bytes: [UInt8]
    var sender: SocketAddress
}

/// Hands every received datagram to the server's processing loop; never closes the channel on
/// an error, so that no input can stop the server.
final class SimulatorDatagramHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>

    private let continuation: AsyncStream<ReceivedDatagram>.Continuation
    private let logger: Logger

    init(continuation: AsyncStream<ReceivedDatagram>.Continuation, logger: Logger) {
        self.continuation = continuation
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var envelope = unwrapInboundIn(data)
        let bytes = envelope.data.readBytes(length: envelope.data.readableBytes) ?? []
        continuation.yield(ReceivedDatagram(bytes: bytes, sender: envelope.remoteAddress))
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        logger.debug("UDP simulator socket error (ignored): \(error)")
    }

    func channelInactive(context: ChannelHandlerContext) {
        continuation.finish()
        context.fireChannelInactive()
    }
}

/// A UDP socket a simulator serves, bound, and the datagrams it receives.
struct SimulatorDatagramSocket {
    /// The bound channel.
    let channel: any Channel
    /// What arrives, in order; finishes when the channel closes.
    let datagrams: AsyncStream<ReceivedDatagram>

    /// Binds `host:port` (port 0: any free one) on `group`; errors name `endpoint`.
    static func bind(
        host: String, port: Int, group: any EventLoopGroup, logger: Logger, endpoint: String
    ) async throws(SimulatorServerError) -> SimulatorDatagramSocket {
        guard (0...65_535).contains(port) else {
            throw SimulatorServerError(.invalidAddress, "\(endpoint): port \(port) is out of range 0–65535")
        }
        let (stream, continuation) = AsyncStream<ReceivedDatagram>.makeStream()
        let handler = SimulatorDatagramHandler(continuation: continuation, logger: logger)
        do {
            let channel = try await DatagramBootstrap(group: group)
                .channelOption(.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: 65_536))
                .channelOption(.socketOption(.so_rcvbuf), value: 1 << 20)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(handler) }
                }
                .bind(host: host, port: port)
                .get()
            return SimulatorDatagramSocket(channel: channel, datagrams: stream)
        } catch {
            continuation.finish()
            throw UDPSimulatorServer.bindError(error, where: endpoint)
        }
    }
}
