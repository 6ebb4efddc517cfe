import SMP

/// The two characteristics Nordic DFU uses on a Bluetooth LE link: a control point, written
/// with response, whose notifications carry the answers, and a data characteristic (legacy
/// DFU's Packet) written without response.
///
/// SMPKit opens one over BlueZ (`NordicDFUConnection`); tests put one in front of a virtual
/// bootloader in memory. ``SecureDFUBLETransport`` and ``LegacyDFUBLETransport`` speak their
/// protocols over it.
public protocol DFUGATTLink: Sendable {
    /// The ATT MTU in use: a data write carries at most MTU − 3 bytes.
    var mtu: Int { get }
    /// The link, for people: `BLE C0:11:22:33:44:55`.
    var linkDescription: String { get }
    /// The control point's notifications, in order. The stream finishes with an error when the
    /// link ends.
    var controlPointNotifications: AsyncThrowingStream<[UInt8], any Error> { get }

    /// Writes `bytes` to the control point with response.
    func writeControlPoint(_ bytes: [UInt8]) async throws
    /// Writes `bytes` to the data characteristic without response.
    func writeData(_ bytes: [UInt8]) async throws
    /// Ends the link.
    func close() async

    /// Ends the link once the device has dropped it, at most `limit` from now (see
    /// ``NordicDFUBootloader/closeWhenDropped(within:)``).
    func closeWhenDropped(within limit: Duration) async
}

extension DFUGATTLink {
    /// Ends the link at once: this link does not outlive the device's reset.
    public func closeWhenDropped(within limit: Duration) async { await close() }

    /// A message and hint for `error`, a failure of this link: what a transport's "disconnected"
    /// error says.
    func describe(_ error: any Error) -> (message: String, hint: String?) {
        if let transportError = error as? SMPTransportError { return (transportError.message, transportError.hint) }
        return ("\(linkDescription): \(error)", nil)
    }
}
