import Logging
import SMP

/// An open two-way byte stream that carries a serial link: a tty (``SerialPort``) or a TCP
/// connection to a serial server (``TCPByteStream``: ser2net, QEMU's socket chardev, socat).
///
/// ``SerialIO`` reads and writes its non-blocking ``descriptor`` and closes it once started;
/// until then (a failed start) the transport closes it.
protocol SerialByteStream: Sendable {
    /// Where it goes, for messages: a device path or `tcp://HOST:PORT`.
    var path: String { get }
    /// The open, non-blocking descriptor.
    var descriptor: Int32 { get }
    /// Drops what was written but not yet sent, where the stream keeps such bytes.
    func discardUnsentOutput()
    /// Lets other processes open the stream's device again, where it is held exclusively.
    func releaseExclusivity()
    /// Closes the descriptor.
    func close()
    /// Called by the reader after each read that returned data: a TCP stream asks the kernel to
    /// acknowledge what arrived at once (see ``TCPByteStream/readCompleted()``); a tty does nothing.
    func readCompleted()
}

extension SerialPort: SerialByteStream {
    /// A tty has no acknowledgements to hurry.
    func readCompleted() {}
}

extension SerialEndpoint {
    /// Opens the byte stream `path` names: a TCP connection for `tcp://HOST:PORT` (within 5 s),
    /// else the tty with `options`' line settings.
    static func openStream(
        _ path: String, options: SerialPortOptions, logger: Logger
    ) async throws(SMPTransportError) -> any SerialByteStream {
        switch SerialEndpoint(path: path) {
        case .tcp(let host, let port):
            return try await TCPByteStream.connect(host: host, port: port, timeout: .seconds(5))
        case .device(let path):
            return try SerialPort.open(path: path, options: options, logger: logger)
        case nil:
            throw SMPTransportError(
                .notFound, "serial:\(path): expected tcp://HOST:PORT", hint: "e.g. serial:tcp://127.0.0.1:5000")
        }
    }
}
