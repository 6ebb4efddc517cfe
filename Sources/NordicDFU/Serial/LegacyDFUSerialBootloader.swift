import Logging
import SMP

/// A legacy DFU bootloader on a serial line, as ``NordicDFUUpgrade`` drives it: each image goes
/// as a Start packet (mode and sizes), the init packet, data packets of up to 512 bytes and a
/// Stop packet, each acknowledged by the bootloader (adafruit-nrfutil's serial flow; the nRF5
/// SDK 11 `dfu_transport_serial.c`).
///
/// It is not a ``LegacyDFUTransport``: the serial bootloader has no control point, answers no
/// request and sends no receipt notifications; the HCI acknowledgement of each packet is all it
/// says, and it refuses something by restarting (its error handler resets the chip). So a
/// restart is looked for after each packet: the next packet's acknowledgement then names the
/// sequence number a fresh bootloader expects. A restart right after Start means the bootloader
/// was still in an earlier, interrupted update (or refused the sizes): Start is sent once more
/// to the restarted bootloader; any other restart fails the transfer. Nothing confirms that
/// the image validated: the bootloader checks it after Stop and starts it, or stays in DFU mode.
public struct LegacyDFUSerialBootloader: NordicDFUBootloader {
    /// How long the bootloader takes to erase one 4 KiB flash page (the nRF52832's worst case,
    /// 89.7 ms, as adafruit-nrfutil assumes): the packet after Start waits for the erase of
    /// the whole image on top of its acknowledgement timeout.
    public static let pageEraseTime = Duration.microseconds(89_700)
    /// The flash page size of the nRF52.
    public static let pageSize = 4096

    /// The link to the bootloader.
    public let transport: LegacyDFUSerialTransport
    private let logger: Logger

    /// A bootloader reached through `transport` (opened, so the sequence number is known).
    public init(transport: LegacyDFUSerialTransport, logger: Logger = Logger(label: "nordic.dfu.legacy.serial")) {
        self.transport = transport
        self.logger = logger
    }

    /// What the link says: the bootloader acknowledged the probe ``LegacyDFUSerialTransport``
    /// sends on opening; it describes nothing more. Data packets are 512 bytes.
    public func inspect() async throws -> NordicDFUDeviceState {
        NordicDFUDeviceState(dfuProtocol: .legacy, link: transport.linkDescription, writeSize: LegacyDFUSerialPacket.maximumDataSize, maximumObjectSize: nil)
    }

    /// Sends `image` from its start (legacy DFU does not resume).
    ///
    /// - Throws: ``LegacyDFUError`` (no acknowledgement, a restart that refused a packet, a lost
    ///   link, an image that cannot be sent) or `CancellationError`; the port stays open for
    ///   ``close()``.
    public func send(_ image: DFUUpgradeImage, progress report: @escaping @Sendable (UploadProgress) -> Void) async throws -> UploadResult {
        let sizes = try LegacyDFUEngine.startSizes(image)
        let clock = ContinuousClock()
        let start = clock.now
        var progress = ProgressCounter(report: report, total: image.firmware.count, clock: clock)
        let startPacket = LegacyDFUSerialPacket.start(
            mode: image.type.legacyModeBits, softDevice: sizes.softDevice, bootloader: sizes.bootloader, application: sizes.application)
        let pages = (image.firmware.count + Self.pageSize - 1) / Self.pageSize + 1
        let erase = Self.pageEraseTime * pages
        // The first packet after Start finds out whether the bootloader took it; a bare
        // application has no init packet and starts with its data.
        let first: LegacyDFUSerialPacket =
            image.initPacket.isEmpty
            ? .data(Array(image.firmware.prefix(LegacyDFUSerialPacket.maximumDataSize))) : .initPacket(image.initPacket)
        var restartedAtStart = false
        while true {
            try await deliver(startPacket, after: nil)
            if case .notTaken = try await transport.send(first, patience: erase) {
                guard !restartedAtStart else {
                    guard !image.initPacket.isEmpty else { throw LegacyDFUError.initPacketRequired(image, when: "restarted when its data followed Start") }
                    throw Self.restarted(after: startPacket, image: image)
                }
                restartedAtStart = true
                progress.restarted()
                logger.debug("the bootloader restarted after Start (an earlier update was interrupted): starting again")
                continue
            }
            break
        }
        var offset = 0
        if case .data(let bytes) = first {
            offset = bytes.count
            progress.wrote(offset)
            progress.confirmed(offset)
        }
        var previous = first
        while offset < image.firmware.count {
            try Task.checkCancellation()
            let end = min(offset + LegacyDFUSerialPacket.maximumDataSize, image.firmware.count)
            let packet = LegacyDFUSerialPacket.data(Array(image.firmware[offset..<end]))
            try await deliver(packet, after: previous, of: image, first: first)
            previous = packet
            progress.wrote(end - offset)
            progress.confirmed(end)
            offset = end
        }
        try await deliver(.stop, after: previous, of: image, first: first)
        let seconds = (clock.now - start).seconds
        var final = progress.progress
        final.acknowledged = UInt64(image.firmware.count)
        final.bytesPerSecond = seconds > 0 ? Double(final.bytesSent) / seconds : 0
        // The bootloader validates the image after Stop and says nothing of it.
        return UploadResult(progress: final, match: nil, window: 1, seconds: seconds)
    }

    /// Sends `packet` of `image`; a restart right after a bare application's first data packet
    /// means the bootloader wants an init packet.
    private func deliver(
        _ packet: LegacyDFUSerialPacket, after previous: LegacyDFUSerialPacket, of image: DFUUpgradeImage, first: LegacyDFUSerialPacket
    ) async throws {
        do {
            try await deliver(packet, after: previous)
        } catch let error as LegacyDFUError where error.kind == .restarted && image.initPacket.isEmpty && previous == first {
            throw LegacyDFUError.initPacketRequired(image, when: "restarted after the image's first data packet")
        }
    }

    /// Sends `packet`; a bootloader that no longer takes packets restarted after `previous`.
    private func deliver(_ packet: LegacyDFUSerialPacket, after previous: LegacyDFUSerialPacket?) async throws {
        guard case .notTaken(var expected) = try await transport.send(packet) else { return }
        if previous == nil {
            // Start went to a bootloader that expects another number: send it again with that one.
            logger.debug("the bootloader expects sequence number \(expected): sending \(packet) with it")
            guard case .notTaken(let again) = try await transport.send(packet) else { return }
            expected = again
        }
        throw LegacyDFUError(
            .restarted,
            "the bootloader restarted after the \(previous ?? packet) (it now expects sequence number \(expected)): it refused it",
            hint: (previous ?? packet).refusalHint)
    }

    private static func restarted(after start: LegacyDFUSerialPacket, image: DFUUpgradeImage) -> LegacyDFUError {
        LegacyDFUError(
            .restarted, "the bootloader restarted after the \(start) for the \(image.summary), twice: it refused the update",
            hint: start.refusalHint)
    }

    /// Closes the port.
    public func close() async { await transport.close() }
}

extension LegacyDFUSerialPacket {
    /// Why a serial bootloader restarts after this packet.
    var refusalHint: String {
        switch self {
        case .start:
            "the image does not fit the bootloader's flash area, its size is not a multiple of 4, or an application came with a "
                + "SoftDevice or bootloader: check that the package is for this board"
        case .initPacket:
            "the bootloader refused the init packet: the device type or revision, application version or required SoftDevice do "
                + "not match this device; check that the package was built for this board"
        case .data:
            "the bootloader refused the image data: more bytes than Start announced, or bytes that are not whole words"
        case .stop, .probe:
            "run the same command again; it sends the image from its start"
        }
    }
}
