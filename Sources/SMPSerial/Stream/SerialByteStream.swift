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
