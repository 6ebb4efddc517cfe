import SMP
import SMPSerial
import Synchronization

/// A serial transport that also counts what its messages take on the wire: each message sent is
/// encoded with Zephyr's console framing (base64 of length, message and CRC, in lines with
/// markers and newlines) exactly as ``SerialTransport`` puts it on the line.
final class WireCountingTransport: SMPTransport {
    /// Messages sent since the last ``reset()``, their bytes, and their bytes on the wire.
    struct Tally: Sendable {
        var messages = 0
        var messageBytes = 0
        var wireBytes = 0
    }

    private let base: SerialTransport
    private let encoder: SerialFrameEncoder
    private let counts = Mutex(Tally())

    init(_ base: SerialTransport) {
        self.base = base
        encoder = SerialFrameEncoder(lineLength: base.options.lineLength, style: .client)
    }

    var endpoint: String { base.endpoint }
    var maximumMessageSize: Int { base.maximumMessageSize }
    var defaultParameters: MCUmgrParameters { base.defaultParameters }
    var deviceBufferOverhead: Int { base.deviceBufferOverhead }
    var inbound: AsyncThrowingStream<[UInt8], any Error> { base.inbound }

    func send(_ message: [UInt8]) async throws {
        let wire = encoder.encode(message).count
        counts.withLock {
            $0.messages += 1
            $0.messageBytes += message.count
            $0.wireBytes += wire
        }
        try await base.send(message)
    }

    func close() async { await base.close() }

    /// What was sent since the last reset.
    var tally: Tally { counts.withLock { $0 } }

    /// Starts counting afresh.
    func reset() { counts.withLock { $0 = Tally() } }
}
