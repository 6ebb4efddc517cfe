import Logging
import NordicDFU
import SMP
import SMPSerial
import SMPSerialDiscovery
import SMPBluetooth
import Synchronization

/// Opens the Nordic DFU bootloader a connection string names: a Secure DFU or legacy DFU
/// bootloader on a serial port (a UART, USB CDC, or a serial server over TCP), found by the same
/// selectors as an SMP device (`serial:/dev/ttyACM0`, `serial:usb=1915:521f`, `serial:tcp://HOST:PORT`),
/// or over Bluetooth LE (`ble:C0:11:22:33:44:55`, `ble:name=DfuTarg`), where the services the
/// device offers say which protocol it speaks, entered from the application through buttonless
/// DFU where it offers it.
///
/// Which protocol the port speaks is learnt by asking in the one the package is for first, with
/// requests that change nothing: a Secure DFU ping, or a legacy HCI packet of no DFU type. When
/// that goes unanswered (a ping) or is answered in the other protocol (a Secure DFU answer to
/// the HCI packet), the other one is tried, so that the plan can say what the device runs and
/// refuse the package. `?touch=1200` opens the port at 1200 baud and closes it first (the
/// Adafruit nRF52 application then restarts into its bootloader).
///
/// ```swift
/// let connector = NordicDFUConnector(try ConnectionString(parsing: "ble:C0:11:22:33:44:55"))
/// let upgrade = NordicDFUUpgrade(connect: { try await connector.open() })
/// ```
public enum NordicDFUConnection {
    /// The USB identity of the nRF5 SDK's USB CDC bootloader (nRF52840): it answers at once and
    /// is not pinged first.
    public static let usbBootloader = (vendorID: UInt16(0x1915), productID: UInt16(0x521F))

    /// The baud rate of the nRF5 SDK's UART bootloader, when the connection string gives none.
    public static let defaultBaudRate = 115_200

    /// Opens the bootloader `connection` names, trying `expected` (the package's protocol) first.
    ///
    /// - Throws: `SMPTransportError` for a port that cannot be found or opened, or a transport
    ///   that does not carry Nordic DFU; `SecureDFUError` or `LegacyDFUError` when the port
    ///   answers in neither protocol (the error of `expected`'s).
    public static func open(
        _ connection: ConnectionString, expecting expected: NordicDFUProtocol = .secure, logger: Logger = Logger(label: "nordic.dfu")
    ) async throws -> any NordicDFUBootloader {
        switch connection.target {
        case .serial(let selector):
            let known: SerialPortInfo?
            let path: String
            if case .path(let given) = selector {
                // A path is opened as given: ptys and socat links are not in sysfs.
                path = given
                known = try? SerialPortDiscovery.resolve(selector)
            } else {
                do {
                    let port = try SerialPortDiscovery.resolve(selector)
                    (path, known) = (port.path, port)
                } catch {
                    throw error.transportError
                }
            }
            return try await openSerial(path: path, known: known, options: connection.options, expected: expected, logger: logger)
        case .serialServer(let server):
            return try await openSerial(
                path: server.description, known: nil, options: connection.options, expected: expected, logger: logger)
        case .udp:
            throw SMPTransportError(
                .unavailable, "\(connection): Nordic DFU bootloaders are not reached over UDP",
                hint: "connect to the bootloader's serial port: -c serial:/dev/ttyACM0")
        case .ble(let selector):
            return try await openBluetooth(selector.deviceSelector, options: connection.options, logger: logger)
        case .labgridPlace(let place):
            throw place.notAcquired
        }
    }

    /// Opens the bootloader on a serial line: `expected`'s protocol first, then the other.
    private static func openSerial(
        path: String, known: SerialPortInfo?, options: ConnectionOptions, expected: NordicDFUProtocol, logger: Logger
    ) async throws -> any NordicDFUBootloader {
        if let touch = options.touchBaudRate { try await SerialTouch.touch(path: path, baudRate: touch, logger: logger) }
        switch expected {
        case .secure:
            do {
                return try await openSecure(path: path, known: known, options: options, logger: logger)
            } catch let error as SecureDFUError where error.kind == .noResponse {
                // A legacy bootloader drops a ping unanswered: see whether it acknowledges HCI packets.
                guard let legacy = try? await openLegacy(path: path, options: options, logger: logger) else { throw error }
                return legacy
            }
        case .legacy:
            do {
                return try await openLegacy(path: path, options: options, logger: logger)
            } catch let error as LegacyDFUError where error.kind == .otherProtocol {
                return try await openSecure(path: path, known: known, options: options, logger: logger)
            }
        }
    }

    private static func serialOptions(_ options: ConnectionOptions) -> SerialPortOptions {
        SerialPortOptions(baudRate: options.baud ?? defaultBaudRate, hardwareFlowControl: options.hardwareFlowControl ?? false)
    }

    /// A Secure DFU bootloader; the USB CDC bootloader is not pinged.
    private static func openSecure(path: String, known: SerialPortInfo?, options: ConnectionOptions, logger: Logger) async throws -> any NordicDFUBootloader {
        let isUSBBootloader = known?.usb.map { $0.vendorID == usbBootloader.vendorID && $0.productID == usbBootloader.productID } ?? false
        var transportOptions = SecureDFUSerialTransport.Options(serial: serialOptions(options), ping: !isUSBBootloader)
        if let timeout = options.timeout { transportOptions.responseTimeout = .seconds(timeout) }
        let transport = try await SecureDFUSerialTransport.open(path: path, options: transportOptions, logger: logger)
        return SecureDFUBootloader(transport: transport)
    }

    /// A legacy DFU bootloader taking HCI packets (`timeout` is the acknowledgement timeout,
    /// `retries` the resends).
    private static func openLegacy(path: String, options: ConnectionOptions, logger: Logger) async throws -> any NordicDFUBootloader {
        var transportOptions = LegacyDFUSerialTransport.Options(serial: serialOptions(options))
        if let timeout = options.timeout { transportOptions.acknowledgementTimeout = .seconds(timeout) }
        if let retries = options.retries { transportOptions.resends = retries }
        let transport = try await LegacyDFUSerialTransport.open(path: path, options: transportOptions, logger: logger)
        return LegacyDFUSerialBootloader(transport: transport, logger: logger)
    }
}

/// Opens the bootloader a connection string names, once per image of a package: after a
/// buttonless entry the bootloader advertises elsewhere (the next address, a new name), and
/// later openings go straight there.
public final class NordicDFUConnector: Sendable {
    /// The connection string given.
    public let connection: ConnectionString
    /// The protocol the package is for, tried first on a serial port.
    public let expected: NordicDFUProtocol
    private let logger: Logger
    private let redirect = Mutex<BLEDeviceFilter.Selector?>(nil)

    /// A connector for `connection`; nothing is opened yet.
    public init(_ connection: ConnectionString, expecting expected: NordicDFUProtocol = .secure, logger: Logger = Logger(label: "nordic.dfu")) {
        self.connection = connection
        self.expected = expected
        self.logger = logger
    }

    /// Opens the bootloader (see ``NordicDFUConnection/open(_:expecting:logger:)``).
    public func open() async throws -> any NordicDFUBootloader {
        guard case .ble(let selector) = connection.target else {
            return try await NordicDFUConnection.open(connection, expecting: expected, logger: logger)
        }
        let target = redirect.withLock { $0 } ?? selector.deviceSelector
        return try await NordicDFUConnection.openBluetooth(target, options: connection.options, logger: logger) { [self] bootloader in
            redirect.withLock { $0 = bootloader }
        }
    }
}

extension ConnectionString.BLESelector {
    /// The scanner's selector for this one.
    public var deviceSelector: BLEDeviceFilter.Selector {
        switch self {
        case .address(let address): .address(address)
        case .name(let name): .name(name)
        }
    }
}
