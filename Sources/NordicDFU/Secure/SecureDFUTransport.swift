/// How Secure DFU requests reach a bootloader: the serial transport (SLIP frames on a UART or USB
/// CDC, ``SecureDFUSerialTransport``), and later BLE (control point and data characteristic).
///
/// ``SecureDFUEngine`` sends one request at a time and waits for its answer, so a transport
/// delivers answers in order; data writes are not answered, except by a receipt notification
/// after every n-th write when notifications are on.
public protocol SecureDFUTransport: Sendable {
    /// The most data bytes one ``writeData(_:)`` carries.
    var maximumWriteSize: Int { get }
    /// How long the bootloader needs after a data object's Create before its data: zero on
    /// serial; nRF5 SDK 15–17 bootloaders over BLE need about 0.4 s to erase the page.
    var objectPreparationDelay: Duration { get }

    /// Sends `request` (anything but ``SecureDFURequest/write(_:)``) and returns the answer to it,
    /// whatever its result.
    ///
    /// - Throws: ``SecureDFUError`` (`.noResponse`, `.disconnected`, `.malformedResponse`) or
    ///   `CancellationError` when the calling task is cancelled.
    func request(_ request: SecureDFURequest) async throws -> SecureDFUResponse

    /// Sends data for the current object, without waiting for an answer.
    func writeData(_ bytes: [UInt8]) async throws

    /// Waits for the next packet receipt notification: the offset and CRC after the n-th write.
    func receiptNotification() async throws -> SecureDFUChecksum

    /// The link, for people: `serial /dev/ttyACM0`.
    var linkDescription: String { get }

    /// Ends the link.
    func close() async

    /// Ends the link once the device has dropped it, at most `limit` from now (see
    /// ``NordicDFUBootloader/closeWhenDropped(within:)``).
    func closeWhenDropped(within limit: Duration) async
}

extension SecureDFUTransport {
    /// Ends the link at once: this link does not outlive the device's reset.
    public func closeWhenDropped(within limit: Duration) async { await close() }
}
