#if canImport(Glibc)
import Glibc
#endif
import NIOCore
import Synchronization

/// Hands the bytes read from the port to the transport, and tells it when the port is gone.
///
/// Read errors (EIO, ENXIO: the device went away) and EOF both end the channel; the transport
/// learns of it once, in `channelInactive`, with the error text if there was one.
final class SerialChannelHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer

    private let received: @Sendable ([UInt8]) -> Void
    private let ended: @Sendable (_ detail: String) -> Void
    private let lastError = Mutex<String?>(nil)

    init(received: @escaping @Sendable ([UInt8]) -> Void, ended: @escaping @Sendable (_ detail: String) -> Void) {
        self.received = received
        self.ended = ended
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        if let bytes = buffer.readBytes(length: buffer.readableBytes), !bytes.isEmpty { received(bytes) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        let text = (error as? IOError).map { errorText($0.errnoCode) } ?? "\(error)"
        lastError.withLock { $0 = text }
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        ended(lastError.withLock { $0 } ?? "end of file")
    }
}
