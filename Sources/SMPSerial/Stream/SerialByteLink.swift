import Logging
import SMP

/// A serial link at the level of bytes: a tty or a TCP serial server (see ``SerialEndpoint``),
/// opened and set up as ``SerialTransport`` opens it, with no framing. Protocols other than SMP
/// that share smpctl's ports (Nordic DFU's SLIP frames) build on it.
///
/// What arrives comes out of ``incoming`` in order; when the device goes away (end of file, EIO,
/// a hang-up: unplugged, reset or re-enumerated) the stream ends with an `SMPTransportError`
/// saying so, and ``send(_:)`` fails from then on. ``close()`` ends the stream without an error.
///
/// ```swift
/// let link = try await SerialByteLink.open(path: "/dev/ttyACM0")
/// try await link.send([0xC0])
/// for try await bytes in link.incoming { … }
/// ```
public final class SerialByteLink: Sendable {
    /// The path it was opened with: a device (or a link to one) or `tcp://HOST:PORT`.
    public let path: String
    /// The bytes received, in order; ends with an error when the device goes away, without one
    /// after ``close()``.
    public let incoming: AsyncThrowingStream<[UInt8], any Error>

    private let io: SerialIO
    private let continuation: AsyncThrowingStream<[UInt8], any Error>.Continuation

    private init(path: String, io: SerialIO, incoming: AsyncThrowingStream<[UInt8], any Error>,
                 continuation: AsyncThrowingStream<[UInt8], any Error>.Continuation) {
        self.path = path
        self.io = io
        self.incoming = incoming
        self.continuation = continuation
    }

    /// Opens `path` (a tty with `options`' baud rate and flow control, or `tcp://HOST:PORT`) and
    /// starts reading it.
    ///
    /// - Throws: `SMPTransportError` saying what is wrong with the port and what to do (a
    ///   missing port lists those present, a busy one names its holder; see ``SerialPort``).
    public static func open(
        path: String, options: SerialPortOptions = SerialPortOptions(), logger: Logger = Logger(label: "smp.serial")
    ) async throws(SMPTransportError) -> SerialByteLink {
        guard options.baudRate > 0 else {
            throw SMPTransportError(.unsupportedSetting, "serial:\(path): a baud rate of \(options.baudRate) is not possible")
        }
        let stream = try await SerialEndpoint.openStream(path, options: options, logger: logger)
        let (incoming, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
        let io: SerialIO
        do {
            io = try SerialIO(
                stream: stream, path: path,
                received: { bytes in continuation.yield(bytes) },
                ended: { detail in continuation.finish(throwing: SerialPortFailure.disappeared(path, detail: detail)) })
        } catch {
            stream.close()
            throw error
        }
        return SerialByteLink(path: path, io: io, incoming: incoming, continuation: continuation)
    }

    /// Writes `bytes`, all of them, waiting while the port's output buffer is full.
    ///
    /// - Throws: `SMPTransportError` (`.closed`) when the device went away or the link was closed.
    public func send(_ bytes: [UInt8]) async throws(SMPTransportError) {
        do {
            try await io.write([bytes], pacing: .unpaced)
        } catch {
            let failure = SerialPortFailure.disappeared(path, detail: error.detail)
            continuation.finish(throwing: failure)
            throw failure
        }
    }

    /// Stops reading, drops unsent output and closes the port; ``incoming`` ends. Idempotent.
    public func close() async {
        continuation.finish()
        await io.stop()
    }
}
