import NIOCore

/// A chunk the host wrote, with the channel to ask for the next one and when it was read.
struct PTYInput: Sendable {
    var bytes: [UInt8]
    var channel: any Channel
    var receivedAt: ContinuousClock.Instant
}

/// Hands what the host writes on the pseudo-terminal to the server. Reads happen one at a time,
/// when the server asks (auto-read is off), so that a paced device takes bytes from the kernel
/// no faster than its UART would and the host feels the back-pressure. A free-running handler
/// (an unpaced line) reads on at once instead, so that each chunk is stamped with the time it
/// arrived even while the server is busy: the receive line buffers judge bursts by it.
///
/// An error (EIO once the host closes its end) ends the channel; the server waits for the host
/// to open the link again.
final class PTYMasterHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer

    private let inputs: AsyncStream<PTYInput>.Continuation
    /// Whether to read the next chunk without waiting for the server.
    let freeRunning: Bool

    init(inputs: AsyncStream<PTYInput>.Continuation, freeRunning: Bool) {
        self.inputs = inputs
        self.freeRunning = freeRunning
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        guard let bytes = buffer.readBytes(length: buffer.readableBytes), !bytes.isEmpty else {
            context.read()
            return
        }
        inputs.yield(PTYInput(bytes: bytes, channel: context.channel, receivedAt: .now))
        if freeRunning { context.read() }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
