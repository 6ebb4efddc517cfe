import DescriptorIO
import Logging
import NordicDFU

/// Serves a ``LegacyDFUTarget`` on a pseudo-terminal as the nRF5 SDK 11 serial DFU bootloader
/// (the Adafruit nRF52 bootloader) does on its UART or USB CDC port: SLIP-framed HCI packets
/// (``HCIPacket``) carrying ``LegacyDFUSerialPacket``s, each acknowledged.
///
/// The HCI layer is the SDK's `hci_transport.c`: a packet whose header, length or CRC is wrong is
/// dropped unanswered; one with the expected sequence number (1 after a restart) is acknowledged
/// with the next number and handed on; any other is acknowledged with the expected number and
/// dropped. The DFU packets drive the target's state machine as the BLE writes would (Start
/// with its sizes, Init, Receive firmware, Validate and Activate on Stop), so its checks (sizes,
/// the init packet's device, version and SoftDevice, the image's CRC-16 or SHA-256) are the same.
/// The serial bootloader has no answers: where the target refuses, the bootloader "restarts"
/// (the SDK's error handler resets the chip), dropping the transfer and expecting sequence
/// number 1 again. Activation installs the image and restarts it too.
///
/// The host may close and reopen the port at will; the bootloader's state stays, as on a device.
public actor LegacyDFUSerialPTYServer {
    /// Damage done to the link, to test a host's resends.
    public struct Faults: Sendable, Hashable {
        /// Packets (numbered from 1 in the order taken, over the server's life) that are taken but
        /// whose acknowledgement is not sent: the host must send them again.
        public var lostAcknowledgements: Set<Int>
        /// The fraction of the other packets taken whose acknowledgement is not sent, drawn from
        /// a generator seeded with ``seed``.
        public var lostAcknowledgementFraction: Double
        /// Seeds ``lostAcknowledgementFraction``'s draws.
        public var seed: UInt64
        /// How long each data packet takes to write to flash before the next is read (nothing
        /// by default): makes a transfer long enough to interrupt.
        public var dataPacketDelay: Duration

        /// No faults, unless given.
        public init(lostAcknowledgements: Set<Int> = [], lostAcknowledgementFraction: Double = 0, seed: UInt64 = 0, dataPacketDelay: Duration = .zero) {
            self.lostAcknowledgements = lostAcknowledgements
            self.lostAcknowledgementFraction = lostAcknowledgementFraction
            self.seed = seed
            self.dataPacketDelay = dataPacketDelay
        }
    }

    /// What the HCI layer saw.
    public struct LinkStatistics: Sendable, Hashable {
        /// Packets taken (the expected sequence number).
        public var packetsTaken = 0
        /// Packets acknowledged without being taken (another sequence number: resends, a new host).
        public var packetsNotTaken = 0
        /// Frames dropped: not an HCI packet (header, length, CRC), or not a reliable DFU packet.
        public var framesDropped = 0
        /// Acknowledgements withheld by ``Faults/lostAcknowledgements`` and
        /// ``Faults/lostAcknowledgementFraction``.
        public var acknowledgementsLost = 0
        /// Restarts: refusals and activations.
        public var restarts = 0

        /// Nothing yet.
        public init() {}
    }

    /// The symbolic link made to the slave, if one was asked for.
    public nonisolated var linkPath: String? { sessions.linkPath }
    /// The bootloader served, with its statistics and installed images.
    public private(set) var target: LegacyDFUTarget
    /// What the HCI layer saw.
    public private(set) var link = LinkStatistics()
    /// How often the host opened the port.
    public var hostConnections: Int { sessions.hostConnections }

    private let faults: Faults
    private let logger: Logger
    private nonisolated let sessions: PseudoTerminalSessions
    /// The sequence number the bootloader takes next (1 after a restart, as the SDK's).
    private var expectedSequence: UInt8 = 1
    /// Receive firmware was announced to the target since Start.
    private var receivingData = false
    private var generator: SeededGenerator

    /// Creates a server; nothing is opened until ``start()``.
    ///
    /// - Parameters:
    ///   - target: the bootloader to serve.
    ///   - linkPath: where to make a symbolic link to the slave (a stale link there is replaced,
    ///     anything else is left alone and ``start()`` fails); nil for none.
    public init(target: LegacyDFUTarget, linkPath: String? = nil, faults: Faults = Faults(), logger: Logger = Logger(label: "nordic.dfu.simulator")) {
        self.target = target
        self.faults = faults
        generator = SeededGenerator(seed: faults.seed)
        self.logger = logger
        sessions = PseudoTerminalSessions(linkPath: linkPath, name: "legacy DFU serial bootloader", logger: logger)
    }

    /// The path hosts open while the server runs: the link, or the slave itself.
    public var path: String? { sessions.path }

    /// Opens the pseudo-terminal, makes the link and starts serving; returns the path to open.
    @discardableResult
    public func start() throws(SimulatorServerError) -> String {
        try sessions.start { [self] channel in
            await converse(on: channel)
            return false
        }
    }

    /// Stops serving: the host sees the device disappear; the link is removed.
    public func stop() async {
        await sessions.stop()
    }

    /// Acknowledges and handles the host's packets until it closes its end.
    private func converse(on channel: DescriptorChannel) async {
        var decoder = SLIPDecoder(maximumFrameSize: HCIPacket.headerSize + LegacyDFUSerialPacket.maximumPayloadSize + HCIPacket.crcSize)
        do {
            for try await chunk in channel.reads {
                for frame in decoder.feed(chunk.bytes) {
                    if let acknowledgement = try await receive(frame) { try await channel.write([SLIP.encode(acknowledgement)]) }
                }
            }
        } catch {
            // The host closed the slave (EIO or a hang-up on the master), or a write failed.
        }
    }

    /// The acknowledgement `frame` earns, if any; a packet taken is handled after it is
    /// acknowledged, as the SDK does.
    private func receive(_ frame: [UInt8]) async throws -> [UInt8]? {
        guard let packet = try? HCIPacket.decode(frame, maximumPayload: LegacyDFUSerialPacket.maximumPayloadSize), packet.isReliable,
            packet.hasDataIntegrityCheck, packet.type == HCIPacket.vendorSpecificType
        else {
            link.framesDropped += 1
            return nil
        }
        guard packet.sequenceNumber == expectedSequence else {
            link.packetsNotTaken += 1
            return try HCIPacket.acknowledgement(expecting: expectedSequence).encoded()
        }
        expectedSequence = HCIPacket.next(expectedSequence)
        link.packetsTaken += 1
        let acknowledgement = try HCIPacket.acknowledgement(expecting: expectedSequence).encoded()
        let lost = faults.lostAcknowledgements.contains(link.packetsTaken)
            || (faults.lostAcknowledgementFraction > 0 && Double.random(in: 0..<1, using: &generator) < faults.lostAcknowledgementFraction)
        if lost { link.acknowledgementsLost += 1 }
        if let dfu = LegacyDFUSerialPacket.parse(packet.payload) { try await handle(dfu) }
        return lost ? nil : acknowledgement
    }

    /// Drives the target as the BLE writes of `packet` would; restarts where it refuses.
    private func handle(_ packet: LegacyDFUSerialPacket) async throws {
        var replies: [LegacyDFUTarget.Reply] = []
        switch packet {
        case let .start(mode, softDevice, bootloader, application):
            receivingData = false
            // An nRF5 SDK ≤ 6 bootloader reads the application's size alone (the "version 1" Start);
            // a SoftDevice or bootloader size it refuses as its BLE service does.
            let version1 = target.configuration.version1 && softDevice == 0 && bootloader == 0
            replies.append(target.controlPoint((version1 ? LegacyDFURequest.startVersion1 : .start(mode: mode)).bytes))
            replies.append(target.packet(version1
                ? LegacyDFURequest.startVersion1Size(application)
                : LegacyDFURequest.startSizes(softDevice: softDevice, bootloader: bootloader, application: application)))
        case .initPacket(let bytes):
            replies.append(target.controlPoint(LegacyDFURequest.initializeBegin.bytes))
            replies.append(target.packet(bytes))
            replies.append(target.controlPoint(LegacyDFURequest.initializeComplete.bytes))
        case .data(let bytes):
            if !receivingData {
                receivingData = true
                replies.append(target.controlPoint(LegacyDFURequest.receiveFirmware.bytes))
            }
            replies.append(target.packet(bytes))
            if faults.dataPacketDelay > .zero { try await Task.sleep(for: faults.dataPacketDelay) }
        case .stop:
            let validation = target.controlPoint(LegacyDFURequest.validate.bytes)
            replies.append(validation)
            if !refuses(validation) { replies.append(target.controlPoint(LegacyDFURequest.activateAndReset.bytes)) }
        case .probe:
            return
        }
        if replies.contains(where: { $0.reset || refuses($0) }) { restart(after: packet) }
    }

    private func refuses(_ reply: LegacyDFUTarget.Reply) -> Bool {
        reply.notifications.contains { notification in
            if case .response(let response) = notification { return response.status != .success }
            return false
        }
    }

    /// The chip resets: the transfer is dropped and the HCI layer starts over.
    private func restart(after packet: LegacyDFUSerialPacket) {
        if target.state != .idle { _ = target.controlPoint(LegacyDFURequest.reset.bytes) }
        logger.debug("legacy DFU serial simulator: restarted after \(packet)")
        link.restarts += 1
        expectedSequence = 1
        receivingData = false
    }
}
