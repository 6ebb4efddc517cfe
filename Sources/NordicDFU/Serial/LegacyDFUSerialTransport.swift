import Logging
import SMP
import SMPSerial

/// The link to a legacy DFU bootloader on a serial line (nRF5 SDK 11 `dfu_transport_serial.c`
/// over `hci_transport.c`; the Adafruit nRF52 bootloader, on its UART or USB CDC port): each
/// ``LegacyDFUSerialPacket`` goes in one reliable ``HCIPacket`` in one SLIP frame, and is
/// resent until the bootloader acknowledges it.
///
/// The bootloader acknowledges a packet with the sequence number it expects next. A packet with
/// another sequence number than it expects is acknowledged but not taken (the acknowledgement
/// then names the number it expects), which is how a resend of a packet whose acknowledgement
/// was lost is recognised, and how a host learns the number to start from: ``open(path:options:logger:)``
/// sends a packet of no DFU type first (``LegacyDFUSerialPacket/probe``), which changes nothing.
///
/// ```swift
/// let transport = try await LegacyDFUSerialTransport.open(path: "/dev/ttyACM0")
/// try await transport.send(.stop)
/// await transport.close()
/// ```
public actor LegacyDFUSerialTransport {
    /// How the port is opened and how long the bootloader may take.
    public struct Options: Sendable, Hashable {
        /// Baud rate and flow control (the framing fields do not apply): 115200 baud without
        /// flow control, as the Adafruit bootloader and adafruit-nrfutil use.
        public var serial: SerialPortOptions
        /// How long a packet waits for its acknowledgement before it is sent again.
        public var acknowledgementTimeout: Duration
        /// How many times an unacknowledged packet is sent again before the bootloader is taken
        /// for gone.
        public var resends: Int

        /// Creates options.
        public init(
            serial: SerialPortOptions = SerialPortOptions(), acknowledgementTimeout: Duration = .seconds(1), resends: Int = 3
        ) {
            self.serial = serial
            self.acknowledgementTimeout = acknowledgementTimeout
            self.resends = max(0, resends)
        }
    }

    /// What became of a packet sent.
    public enum Delivery: Sendable, Hashable {
        /// The bootloader acknowledged and took it.
        case taken
        /// The bootloader acknowledged it without taking it: it expects this other sequence
        /// number (it restarted, or it was left by an earlier host). The next packet goes with it.
        case notTaken(expected: UInt8)
    }

    /// The largest frame read back: an acknowledgement is 4 bytes; a Secure DFU answer (which
    /// tells the wrong bootloader) at most a few dozen.
    static let maximumFrameSize = 64

    /// The port's path.
    public nonisolated let path: String
    /// `serial PATH`.
    public nonisolated var linkDescription: String { "serial \(path)" }
    /// The settings it was opened with.
    public nonisolated let options: Options

    private let link: SerialByteLink
    private let inbox: FrameInbox
    private let reader: Task<Void, Never>
    private let logger: Logger
    private var sequenceNumber: UInt8 = 1

    private init(path: String, options: Options, link: SerialByteLink, inbox: FrameInbox, reader: Task<Void, Never>, logger: Logger) {
        self.path = path
        self.options = options
        self.link = link
        self.inbox = inbox
        self.reader = reader
        self.logger = logger
    }

    /// Opens the port and learns the sequence number the bootloader expects.
    ///
    /// - Throws: `SMPTransportError` when the port cannot be opened; ``LegacyDFUError``:
    ///   `.noResponse` when nothing acknowledges the probe, `.otherProtocol` when a Secure DFU
    ///   bootloader answers instead.
    public static func open(
        path: String, options: Options = Options(), logger: Logger = Logger(label: "nordic.dfu.legacy.serial")
    ) async throws -> LegacyDFUSerialTransport {
        let link = try await SerialByteLink.open(path: path, options: options.serial, logger: logger)
        let inbox = FrameInbox()
        let reader = inbox.read(link, maximumFrameSize: maximumFrameSize) { error in
            error.map { LegacyDFUError(.disconnected, $0.message, hint: $0.hint) }
                ?? LegacyDFUError(.disconnected, "serial:\(path): the connection was closed")
        }
        let transport = LegacyDFUSerialTransport(path: path, options: options, link: link, inbox: inbox, reader: reader, logger: logger)
        do {
            _ = try await transport.send(.probe)
            return transport
        } catch {
            await transport.close()
            throw error
        }
    }

    /// Sends `packet` until it is acknowledged: every ``Options/acknowledgementTimeout``, at most
    /// ``Options/resends`` times again, and more while `patience` lasts (a bootloader erasing
    /// flash takes nothing in).
    ///
    /// - Throws: ``LegacyDFUError`` (`.noResponse`, `.disconnected`, `.otherProtocol`) or `CancellationError`.
    public func send(_ packet: LegacyDFUSerialPacket, patience: Duration = .zero) async throws -> Delivery {
        let sequence = sequenceNumber
        let frame: [UInt8]
        do {
            frame = [SLIP.end] + SLIP.encode(try HCIPacket.dfu(sequenceNumber: sequence, payload: packet.bytes).encoded())
        } catch {
            throw LegacyDFUError(.invalidInput, "\(packet): \(error)")
        }
        let stale = inbox.discardKept()
        if stale > 0 { logger.trace("serial:\(path): dropped \(stale) frames nobody waited for") }
        let attempts = 1 + options.resends + Int((patience / options.acknowledgementTimeout).rounded(.up))
        for attempt in 1...attempts {
            try Task.checkCancellation()
            if attempt > 1 {
                logger.debug("serial:\(path): no acknowledgement of \(packet) (sequence \(sequence)): sending it again")
            }
            do {
                try await link.send(frame)
            } catch {
                throw LegacyDFUError(.disconnected, error.message, hint: error.hint)
            }
            if let delivery = try await acknowledgement(of: sequence) {
                if case .notTaken(let expected) = delivery { sequenceNumber = expected } else { sequenceNumber = HCIPacket.next(sequence) }
                return delivery
            }
        }
        throw LegacyDFUError(
            .noResponse,
            "serial:\(path): no acknowledgement of the \(packet) after \(attempts) attempts (\(options.acknowledgementTimeout) each)",
            hint: "is the device in its legacy DFU bootloader (nRF5 SDK 11 or older, the Adafruit nRF52 bootloader)? Enter it with the board's "
                + "reset button or a 1200-baud touch (add ?touch=1200 to the connection string), and check the baud rate (115200) and flow control")
    }

    /// The acknowledgement of the packet numbered `sequence`, or nil when none came in time.
    /// An acknowledgement naming `sequence` itself is a late duplicate of the previous packet's
    /// and is passed over; other frames than acknowledgements are line noise, unless they are a
    /// Secure DFU bootloader's answer.
    private func acknowledgement(of sequence: UInt8) async throws -> Delivery? {
        let deadline = ContinuousClock.now + options.acknowledgementTimeout
        while true {
            let frame: [UInt8]
            do {
                frame = try await inbox.next(timeout: max(.zero, deadline - .now))
            } catch is FrameInbox.Timeout {
                return nil
            }
            let packet: HCIPacket
            do {
                packet = try HCIPacket.decode(frame, maximumPayload: Self.maximumFrameSize)
            } catch {
                if frame.first == SecureDFUOpCode.response.rawValue {
                    throw LegacyDFUError(
                        .otherProtocol, "serial:\(path): a Secure DFU bootloader answers, not a legacy one",
                        hint: "the device runs an nRF5 SDK 12–17 bootloader: install a Secure DFU package (nrfutil pkg generate)")
                }
                logger.debug("serial:\(path): passed over a frame: \(error)")
                continue
            }
            guard packet.isAcknowledgement else { continue }
            switch packet.acknowledgementNumber {
            case HCIPacket.next(sequence): return .taken
            case sequence: continue
            default: return .notTaken(expected: packet.acknowledgementNumber)
            }
        }
    }

    /// Closes the port.
    public func close() async {
        reader.cancel()
        await link.close()
    }
}
