import Logging
import SMP

/// An open two-way byte stream that carries a serial link: a tty (``SerialPort``), a TCP
/// connection to a raw serial server (``TCPByteStream``: ser2net, QEMU's socket chardev, socat) or
/// to an RFC 2217 server (``RFC2217ByteStream``), whose bytes go through telnet.
///
/// ``SerialIO`` reads and writes its non-blocking ``descriptor`` and closes it once started;
/// until then (a failed start) the transport closes it.
protocol SerialByteStream: Sendable {
    /// Where it goes, for messages: a device path, `tcp://HOST:PORT` or `rfc2217://HOST:PORT`.
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
    /// The serial data in bytes read from the descriptor (what a protocol around it added taken out).
    func incoming(_ bytes: [UInt8]) -> [UInt8]
    /// The bytes to write to the descriptor for serial data.
    func outgoing(_ bytes: [UInt8]) -> [UInt8]
}

extension SerialByteStream {
    /// The descriptor carries the serial bytes as they are.
    func incoming(_ bytes: [UInt8]) -> [UInt8] { bytes }
    /// The descriptor carries the serial bytes as they are.
    func outgoing(_ bytes: [UInt8]) -> [UInt8] { bytes }
}

extension SerialPort: SerialByteStream {
    /// A tty has no acknowledgements to hurry.
    func readCompleted() {}
}

extension SerialEndpoint {
    /// Opens the byte stream `path` names: a TCP connection for `tcp://HOST:PORT` (within 5 s),
    /// an RFC 2217 port set up with `options`' line settings for `rfc2217://HOST:PORT`, else the
    /// tty with `options`' line settings.
    static func openStream(
        _ path: String, options: SerialPortOptions, logger: Logger
    ) async throws(SMPTransportError) -> any SerialByteStream {
        switch SerialEndpoint(path: path) {
        case .server(let server) where server.kind == .raw:
            return try await TCPByteStream.connect(server, timeout: .seconds(5))
        case .server(let server):
            return try await RFC2217ByteStream.connect(server, options: options, logger: logger)
        case .device(let path):
            return try SerialPort.open(path: path, options: options, logger: logger)
        case nil:
            throw SMPTransportError(
                .notFound, "serial:\(path): expected tcp://HOST:PORT or rfc2217://HOST:PORT", hint: "e.g. serial:tcp://127.0.0.1:5000")
        }
    }
}
