import Logging
import SMP
import SMPSerial
import SMPSerialDiscovery

extension SMPConnection {
    /// How long a serial device may stay away (reset, USB re-enumeration) before the link fails.
    public static let serialRelocationTimeout: Duration = .seconds(15)

    /// Opens the serial port a selector names, with a way to find the device again after it
    /// re-enumerates: by USB identity (serial number, else path) for USB devices, by its path
    /// for anything else (built-in UARTs, ptys).
    static func openSerial(
        _ selector: SerialPortSelector, options: ConnectionOptions, logger: Logger = Logger(label: "smp")
    ) async throws(SMPError) -> SerialTransport {
        if case .path(let given) = selector {
            // A path is opened as given: ptys and socat links are not in sysfs.
            return try await openSerial(.device(path: given), known: try? SerialPortDiscovery.resolve(selector), options: options, logger: logger)
        }
        let known: SerialPortInfo
        do {
            known = try SerialPortDiscovery.resolve(selector)
        } catch {
            throw .transport(error.transportError)
        }
        return try await openSerial(.device(path: known.path), known: known, options: options, logger: logger)
    }

    /// Opens a serial line: a device (`known` when discovery lists it) or a serial server over TCP.
    static func openSerial(
        _ endpoint: SerialEndpoint, known: SerialPortInfo?, options: ConnectionOptions,
        pacingMemory: LinePacingMemory? = LinePacingMemory.standard(), logger: Logger = Logger(label: "smp")
    ) async throws(SMPError) -> SerialTransport {
        var portOptions = SerialPortOptions(
            baudRate: options.baud ?? 115_200, hardwareFlowControl: options.hardwareFlowControl ?? false,
            lineLength: options.lineLength ?? SerialFrameEncoder.defaultLineLength, maximumMessageSize: options.mtu,
            framing: options.framing ?? .console, pacing: options.linePacing)
        let path = endpoint.description
        // The pacing learned on this device in an earlier session, unless the options give one.
        // A USB device is known again by its identity, a serial server by its address (a lab's
        // port stays wired to its board); pseudo-terminals are reused by other devices. Raw
        // framing's pacing follows from the line's rate and is not remembered.
        let device = endpoint.isServer ? path : known?.usb.map { "usb:\($0.vendorIDHex):\($0.productIDHex):\($0.serialNumber ?? path)" }
        var learned: (@Sendable (LinePacing) -> Void)?
        if let device, let pacingMemory, portOptions.framing.usesConsoleLines {
            if portOptions.pacing == nil { portOptions.pacing = pacingMemory.pacing(for: device) }
            learned = { pacing in pacingMemory.remember(pacing, for: device) }
        }
        let relocate: @Sendable () async throws -> String
        if endpoint.isServer {
            relocate = sameEndpoint(path)
        } else {
            relocate = known.flatMap { $0.usb == nil ? nil : SerialPortDiscovery.relocator(for: $0, timeout: serialRelocationTimeout) }
                ?? waitForPath(path, timeout: serialRelocationTimeout)
        }
        do {
            return try await SerialTransport.open(
                path: path, options: portOptions, relocate: relocate, relocationTimeout: serialRelocationTimeout,
                pacingLearned: learned, logger: logger)
        } catch {
            throw .transport(error)
        }
    }

    /// A relocator for a serial server: it stays where it is, and reopening retries the connection.
    private static func sameEndpoint(_ path: String) -> @Sendable () async throws -> String {
        { path }
    }

    /// A relocator for a device that keeps its path: waits until the path exists again.
    private static func waitForPath(_ path: String, timeout: Duration) -> @Sendable () async throws -> String {
        {
            let deadline = ContinuousClock.now + timeout
            while ContinuousClock.now < deadline {
                if SerialPortDiscovery.exists(path) { return path }
                try await Task.sleep(for: .milliseconds(100))
            }
            throw SMPTransportError(
                .notFound, "serial:\(path): the device did not come back within \(timeout)",
                hint: "check the cable and that the device boots", nextStep: .listSerialPorts)
        }
    }
}
