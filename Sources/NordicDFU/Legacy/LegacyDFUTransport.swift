/// How legacy DFU reaches a bootloader: its DFU service's Control Point (written with response,
/// notifying), Packet (written without response) and Version characteristics over BLE, or an
/// in-memory link to the virtual bootloader in tests.
///
/// ``LegacyDFUEngine`` writes one request at a time and reads the notifications in the order
/// the bootloader sent them; a transport queues notifications that arrive before they are read
/// (a BLE transport subscribes to the Control Point before the first write).
public protocol LegacyDFUTransport: Sendable {
    /// Writes `request` to the Control Point (a write with response: it returns once the device
    /// took the write, not when it answered).
    ///
    /// - Throws: ``LegacyDFUError`` (`.disconnected`, `.noResponse`) or `CancellationError`.
    ///   ``LegacyDFURequest/reset`` is also written by a cancelled task, to leave the bootloader
    ///   clean: a transport writes it whatever the task's state.
    func writeControlPoint(_ request: LegacyDFURequest) async throws

    /// Writes `bytes` (at most 20) to the Packet characteristic without response.
    func writePacket(_ bytes: [UInt8]) async throws

    /// The next notification from the Control Point: a response or a packet receipt
    /// notification, waiting for it up to the transport's timeout.
    ///
    /// - Throws: ``LegacyDFUError`` (`.noResponse` when none came in time, `.malformedResponse`,
    ///   `.disconnected`) or `CancellationError`.
    func notification() async throws -> LegacyDFUNotification

    /// The DFU Version characteristic (0x0005 for SDK 7's 0.5, up to 0x0008), nil when the
    /// bootloader has none (nRF5 SDK ≤ 6) or it was not read.
    var dfuVersion: UInt16? { get }

    /// The link, for people: `BLE C0:11:22:33:44:55`.
    var linkDescription: String { get }

    /// Ends the link.
    func close() async

    /// Ends the link once the device has dropped it, at most `limit` from now (see
    /// ``NordicDFUBootloader/closeWhenDropped(within:)``).
    func closeWhenDropped(within limit: Duration) async
}

extension LegacyDFUTransport {
    /// Ends the link at once: this link does not outlive the device's reset.
    public func closeWhenDropped(within limit: Duration) async { await close() }
}
