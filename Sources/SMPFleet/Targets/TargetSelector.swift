import SMPBluetooth
import SMPKit
import SMPSerialDiscovery

/// What `-c` or a targets-file line names, ready to be resolved into devices: one device (a plain
/// connection string, as ever) or possibly many (a selector, ``DeviceSelector``). The text is
/// parsed by the one grammar of connection text (``DeviceSelection``); this type finds the devices.
///
/// ```swift
/// let targets = try await TargetSelector(parsing: "udp:127.0.0.1:14000-14004").resolve()  // 5 targets
/// ```
public struct TargetSelector: Sendable, Hashable, CustomStringConvertible {
    /// What the text names.
    public let selection: DeviceSelection

    /// Parses a selector or a plain connection string.
    ///
    /// - Throws: ``TargetSelectionError`` of kind `usage` (``TargetSelectionError/init(_:)``).
    public init(parsing text: String) throws(TargetSelectionError) {
        do {
            self.init(try DeviceSelection(parsing: text))
        } catch {
            throw TargetSelectionError(error)
        }
    }

    /// A selection parsed already.
    public init(_ selection: DeviceSelection) {
        self.selection = selection
    }

    /// A selector as written (trimmed), or the connection string.
    public var text: String { selection.description }

    /// Whether the text may name more than one device (a selector form, not a plain connection string).
    public var mayMatchMany: Bool {
        if case .one = selection { return false }
        return true
    }

    public var description: String { text }

    /// Resolves to targets now: serial selectors through udev/sysfs discovery, UDP selectors by
    /// expansion, BLE name patterns by a BlueZ scan on `bluetoothBus` (the system bus by default),
    /// labgrid places by the coordinator's list (none acquired: each is acquired when its turn comes).
    /// A plain connection string is one target, not looked up.
    ///
    /// - Parameter label: the name of the target, or with several `LABEL-1`, `LABEL-2`…; without
    ///   one, targets are named by their serial number, advertised name or address.
    /// - Throws: ``TargetSelectionError``: `notFound` when nothing matches (the message names the
    ///   selector, the hint lists what was seen), `transport` when udev or BlueZ cannot be used.
    public func resolve(
        label: String? = nil, bluetoothBus: String = DBusClient.systemBusAddress
    ) async throws(TargetSelectionError) -> [DeviceTarget] {
        guard case .many(let selector) = selection else { return try resolve(among: [], label: label) }
        switch selector.form {
        case .serial(let ports):
            let attached: [SerialPortInfo]
            do {
                attached = try SerialPortDiscovery.ports()
            } catch {
                throw TargetSelectionError(.transport, "listing serial ports for \"\(text)\": \(error.message)", hint: error.hint)
            }
            return try resolve(among: SerialPathGlob.adding(to: attached, for: ports), label: label)
        case .udp:
            return try resolve(among: [], label: label)
        case .bleName(let glob, let seconds):
            return try await BLENameScan.targets(
                glob, seconds: seconds ?? BLENameScan.defaultSeconds, options: selector.options, selector: text, label: label,
                busAddress: bluetoothBus)
        case .labgrid(let pattern, let coordinator):
            return try await LabgridPlaceTargets.targets(pattern, coordinator: coordinator, options: selector.options, selector: text, label: label)
        }
    }

    /// The targets among `ports` (what ``resolve(label:bluetoothBus:)`` does with the attached
    /// ports); other forms resolve as there, without discovery or a BLE scan.
    public func resolve(among ports: [SerialPortInfo], label: String? = nil) throws(TargetSelectionError) -> [DeviceTarget] {
        switch selection {
        case .one(let connection):
            return [DeviceTarget(name: label, connection: connection, identity: Self.identity(of: connection))]
        case .many(let selector):
            switch selector.form {
            case .serial(let matching):
                return try SerialTargetMatch.targets(matching, options: selector.options, in: ports, selector: text, label: label)
            case .udp(let endpoints):
                return endpoints.enumerated().map { index, endpoint in
                    let connection = ConnectionString(target: .udp(host: endpoint.host, port: endpoint.port), options: selector.options)
                    return DeviceTarget(
                        name: TargetNaming.name(label: label, index: index, count: endpoints.count), connection: connection,
                        identity: Self.identity(of: connection))
                }
            case .bleName:
                throw TargetSelectionError(.usage, "\"\(text)\" is resolved by a Bluetooth LE scan, not among serial ports")
            case .labgrid:
                throw TargetSelectionError(.usage, "\"\(text)\" is resolved by a labgrid coordinator, not among serial ports")
            }
        }
    }

    /// The target that stands for this selector in a report when it matched no device (an
    /// unplugged shelf): named by `label`, else by the selector, and carrying the selector's
    /// transport and options. It names no device to reach; a run records it as failed.
    public func unmatchedTarget(label: String?) -> DeviceTarget {
        let connection: ConnectionString
        switch selection {
        case .one(let one):
            connection = one
        case .many(let selector):
            switch selector.form {
            case .serial(let ports): connection = ConnectionString(target: .serial(ports), options: selector.options)
            case .udp(let endpoints):
                let first = endpoints.first ?? UDPEndpoint(host: "", port: 0)
                connection = ConnectionString(target: .udp(host: first.host, port: first.port), options: selector.options)
            case .bleName(let glob, _): connection = ConnectionString(target: .ble(.name(glob.description)), options: selector.options)
            case .labgrid(let pattern, let coordinator):
                connection = ConnectionString(target: .labgridPlace(LabgridPlace(name: pattern, coordinator: coordinator)), options: selector.options)
            }
        }
        return DeviceTarget(name: label ?? text, connection: connection)
    }

    /// What a plain connection string tells of the device: its address.
    private static func identity(of connection: ConnectionString) -> DeviceIdentity {
        switch connection.target {
        case .udp: return DeviceIdentity(address: String(ConnectionString(target: connection.target).description.dropFirst("udp:".count)))
        case .serial(.path(let path)): return DeviceIdentity(address: path)
        case .serial(.serialNumber(let serial)), .serial(.usb(_, _, let serial?)), .serial(.usbInterface(let serial, _)):
            return DeviceIdentity(serialNumber: serial)
        case .serialServer(let server): return DeviceIdentity(address: server.description)
        case .serial(.usb), .serial(.auto), .serial(.matching), .ble(.name): return DeviceIdentity()
        case .ble(.address(let address)): return DeviceIdentity(address: address)
        case .labgridPlace: return DeviceIdentity()
        }
    }
}
