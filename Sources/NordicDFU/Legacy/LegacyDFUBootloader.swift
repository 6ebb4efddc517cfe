import SMP

/// A legacy DFU bootloader as ``NordicDFUUpgrade`` drives it: a ``LegacyDFUTransport`` (BLE, or
/// the virtual bootloader in memory) and the ``LegacyDFUEngine`` that sends each image through it.
public struct LegacyDFUBootloader: NordicDFUBootloader {
    /// The link to the bootloader.
    public let transport: any LegacyDFUTransport
    /// How transfers run.
    public let options: LegacyDFUEngine.Options

    /// A bootloader reached through `transport`.
    public init(transport: any LegacyDFUTransport, options: LegacyDFUEngine.Options = LegacyDFUEngine.Options()) {
        self.transport = transport
        self.options = options
    }

    /// What the link says: legacy DFU has no request that describes the bootloader, and asking
    /// would change its state, so nothing is sent. Packets are 20 bytes; there are no objects.
    public func inspect() async throws -> NordicDFUDeviceState {
        NordicDFUDeviceState(dfuProtocol: .legacy, link: transport.linkDescription, writeSize: LegacyDFUEngine.packetSize, maximumObjectSize: nil)
    }

    /// Sends the image through a new engine (from the start: legacy DFU does not resume).
    public func send(_ image: DFUUpgradeImage, progress: @escaping @Sendable (UploadProgress) -> Void) async throws -> UploadResult {
        let start = ContinuousClock.now
        let report = try await LegacyDFUEngine(transport: transport, options: options).send(image, progress: progress)
        let total = UInt64(image.firmware.count)
        let sent = UInt64(report.dataBytesWritten)
        let seconds = (ContinuousClock.now - start).seconds
        let final = UploadProgress(
            acknowledged: total, total: total, bytesPerSecond: seconds > 0 ? Double(sent) / seconds : 0, chunksSent: report.dataPackets,
            bytesSent: sent)
        // The bootloader validated the image (CRC-16 or SHA-256 of its init packet) before it was
        // activated; a bare application is checked by nothing but the receipt counts.
        return UploadResult(progress: final, match: report.initPacketSent ? true : nil, window: 1, seconds: seconds)
    }

    /// Closes the transport.
    public func close() async { await transport.close() }

    /// Ends the link once the device has dropped it (at most `limit` from now).
    public func closeWhenDropped(within limit: Duration) async { await transport.closeWhenDropped(within: limit) }
}
