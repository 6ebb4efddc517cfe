import SMP

/// A Nordic DFU bootloader reached over one link (serial, BLE), as ``NordicDFUUpgrade`` drives it:
/// what it says about itself, and the sending of one image, which it checks, installs and
/// starts. The protocol engines (Secure DFU, legacy DFU) each provide one per transport.
public protocol NordicDFUBootloader: Sendable {
    /// Asks the bootloader what the plan needs (protocol, link, sizes), changing nothing.
    func inspect() async throws -> NordicDFUDeviceState

    /// Sends `image`: its init packet, then its firmware, continuing what an interrupted run left
    /// when the bootloader holds it; `progress` gets the bytes the bootloader holds as they
    /// grow. Returns when the bootloader has accepted the image (it then installs it and resets).
    func send(_ image: DFUUpgradeImage, progress: @escaping @Sendable (UploadProgress) -> Void) async throws -> UploadResult

    /// Ends the link.
    func close() async

    /// Ends the link once the device has dropped it, at most `limit` from now: a bootloader
    /// that accepted an image resets a moment after its last answer, and a client that
    /// disconnected and connected again sooner would reach it before the reset drops it.
    func closeWhenDropped(within limit: Duration) async
}

extension NordicDFUBootloader {
    /// Ends the link at once: this link does not outlive the device's reset.
    public func closeWhenDropped(within limit: Duration) async { await close() }
}
