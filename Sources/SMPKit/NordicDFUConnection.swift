import Logging
import NordicDFU
import SMP
import SMPSerial
import SMPSerialDiscovery
import SMPBluetooth
import Synchronization

/// Opens the Nordic DFU bootloader a connection string names: a Secure DFU bootloader on a
/// serial port (a UART, USB CDC, or a serial server over TCP), found by the same selectors as
/// an SMP device (`serial:/dev/ttyACM0`, `serial:usb=1915:521f`, `serial:tcp://HOST:PORT`), or
/// a Secure or legacy DFU bootloader over Bluetooth LE (`ble:C0:11:22:33:44:55`,
/// `ble:name=DfuTarg`), entered from the application through buttonless DFU where it offers it.
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

    /// Opens the bootloader `connection` names.
    ///
    /// - Throws: `SMPTransportError` for a port that cannot be found or opened, or a transport
    ///   that does not carry Nordic DFU; `SecureDFUError` when the port answers no ping.
    public static func open(_ connection: ConnectionString, logger: Logger = Logger(label: "nordic.dfu")) async throws -> any NordicDFUBootloader {
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
            return try await openSerial(path: path, known: known, options: connection.options, logger: logger)
        case .serialServer(let host, let port):
            return try await openSerial(path: SerialEndpoint.tcp(host: host, port: port).description, known: nil, options: connection.options, logger: logger)
        case .udp:
            throw SMPTransportError(
                .unavailable, "\(connection): Nordic DFU bootloaders are not reached over UDP",
                hint: "connect to the bootloader's serial port: -c serial:/dev/ttyACM0")
        case .ble(let selector):
            return try await openBluetooth(selector.deviceSelector, options: connection.options, logger: logger)
        }
    }

    /// Opens a Secure DFU bootloader on a serial line; the USB CDC bootloader is not pinged.
    private static func openSerial(path: String, known: SerialPortInfo?, options: ConnectionOptions, logger: Logger) async throws -> any NordicDFUBootloader {
        let serial = SerialPortOptions(baudRate: options.baud ?? defaultBaudRate, hardwareFlowControl: options.hardwareFlowControl ?? false)
        let isUSBBootloader = known?.usb.map { $0.vendorID == usbBootloader.vendorID && $0.productID == usbBootloader.productID } ?? false
        var transportOptions = SecureDFUSerialTransport.Options(serial: serial, ping: !isUSBBootloader)
        if let timeout = options.timeout { transportOptions.responseTimeout = .seconds(timeout) }
        let transport = try await SecureDFUSerialTransport.open(path: path, options: transportOptions, logger: logger)
        return SecureDFUBootloader(transport: transport)
    }
}

/// Opens the bootloader a connection string names, once per image of a package: after a
/// buttonless entry the bootloader advertises elsewhere (the next address, a new name), and
/// later openings go straight there.
public final class NordicDFUConnector: Sendable {
    /// The connection string given.
    public let connection: ConnectionString
    private let logger: Logger
    private let redirect = Mutex<BLEDeviceFilter.Selector?>(nil)

    /// A connector for `connection`; nothing is opened yet.
    public init(_ connection: ConnectionString, logger: Logger = Logger(label: "nordic.dfu")) {
        self.connection = connection
        self.logger = logger
    }

    /// Opens the bootloader (see ``NordicDFUConnection/open(_:logger:)``).
    public func open() async throws -> any NordicDFUBootloader {
        guard case .ble(let selector) = connection.target else { return try await NordicDFUConnection.open(connection, logger: logger) }
        let target = redirect.withLock { $0 } ?? selector.deviceSelector
        return try await NordicDFUConnection.openBluetooth(target, options: connection.options, logger: logger) { [self] bootloader in
            redirect.withLock { $0 = bootloader }
        }
    }
}

extension ConnectionString.BLESelector {
    /// The scanner's selector for this one.
    var deviceSelector: BLEDeviceFilter.Selector {
        switch self {
        case .address(let address): .address(address)
        case .name(let name): .name(name)
        }
    }
}
