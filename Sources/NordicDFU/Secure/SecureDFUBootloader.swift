import SMP

/// A Secure DFU bootloader as ``NordicDFUUpgrade`` drives it: a ``SecureDFUTransport`` (serial,
/// BLE) and the ``SecureDFUEngine`` that sends each image through it.
public struct SecureDFUBootloader: NordicDFUBootloader {
    /// The link to the bootloader.
    public let transport: any SecureDFUTransport
    /// How transfers run.
    public let options: SecureDFUEngine.Options

    /// A bootloader reached through `transport`.
    public init(transport: any SecureDFUTransport, options: SecureDFUEngine.Options = SecureDFUEngine.Options()) {
        self.transport = transport
        self.options = options
    }

    /// Selects the data object (which changes nothing) for the size of the objects the
    /// bootloader takes.
    public func inspect() async throws -> NordicDFUDeviceState {
        let response = try await transport.request(.select(.data))
        if let failure = response.failure(object: .data, offset: nil) { throw failure }
        let selection = try response.selection()
        return NordicDFUDeviceState(
            dfuProtocol: .secure, link: transport.linkDescription, writeSize: transport.maximumWriteSize,
            maximumObjectSize: Int(selection.maximumSize))
    }

    /// Sends the image's init packet and firmware through a new engine.
    public func send(_ image: DFUUpgradeImage, progress: @escaping @Sendable (UploadProgress) -> Void) async throws -> UploadResult {
        let start = ContinuousClock.now
        let report = try await SecureDFUEngine(transport: transport, options: options).send(
            initPacket: image.initPacket, firmware: image.firmware, progress: progress)
        let total = UInt64(image.firmware.count)
        let sent = UInt64(report.dataBytesWritten)
        let seconds = (ContinuousClock.now - start).seconds
        let final = UploadProgress(
            acknowledged: total, total: total, bytesPerSecond: seconds > 0 ? Double(sent) / seconds : 0, chunksSent: report.writes,
            bytesSent: sent, resumedFrom: report.resumedFrom.map(UInt64.init))
        // The bootloader checked the whole image (its hash, against the init packet) before it
        // accepted the last object; one request is in flight at a time.
        return UploadResult(
            progress: final, match: true, window: 1, seconds: seconds,
            isIrregular: report.resumedFrom != nil || report.objectRetries > 0)
    }

    /// Closes the transport.
    public func close() async { await transport.close() }

    /// Ends the link once the device has dropped it (at most `limit` from now).
    public func closeWhenDropped(within limit: Duration) async { await transport.closeWhenDropped(within: limit) }
}
