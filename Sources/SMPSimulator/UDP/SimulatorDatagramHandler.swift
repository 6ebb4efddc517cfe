import Logging
import NIOCore

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
