import SMPBluetooth
import SMPKit
import SMPSerialDiscovery

/// What `-c` or a targets-file line names: one device (a plain connection string, as ever) or
/// possibly many (a selector).
///
/// Selector forms (docs/many-devices.md):
/// - `serial:*`: every likely SMP serial device (the test of `serial:auto`);
/// - `serial:KEY=GLOB[,KEY=GLOB…]`: the serial ports passing every filter (``SerialPortFilter``:
///   `vid`, `pid`, `serial`, `manufacturer`, `product`, `usb-path`, `path`, udev properties such as
///   `ID_MODEL`), also `serial:serial-number=GLOB` and `serial:/dev/ttyACM*` when they hold a `*`;
/// - `udp:HOST,HOST:PORT`, `udp:[HOST:PORT,HOST]`, `udp:HOST:LOW-HIGH`, `udp:A.B.C.LOW-HIGH`
///   (at most 4096 endpoints);
/// - `ble:name=GLOB` with a `*`: a BLE scan (`?scan=SECONDS`, default 5).
///
/// A selector's `?options` (timeout, retries, baud…) apply to every device it matches.
///
/// ```swift
/// let targets = try await TargetSelector(parsing: "udp:127.0.0.1:14000-14004").resolve()  // 5 targets
/// ```
public struct TargetSelector: Sendable, Hashable, CustomStringConvertible {
    /// What the text names.
    enum Form: Sendable, Hashable {
        /// One device, as a connection string names it.
        case connection(ConnectionString)
        /// The attached serial ports a filter passes.
        case serial(SerialPortFilter, ConnectionOptions)
        /// UDP endpoints.
        case udp(UDPTargetExpansion, ConnectionOptions)
        /// The BLE devices a scan hears with a matching name.
        case bleName(TargetGlob, scanSeconds: Double, ConnectionOptions)
    }

    /// The text as given (trimmed).
    public let text: String
    let form: Form

    /// Parses a selector or a plain connection string.
    ///
    /// - Throws: ``TargetSelectionError`` of kind `usage`; for a plain connection string its message
    ///   and hint are those of ``ConnectionStringError`` (as for `-c` today).
    public init(parsing text: String) throws(TargetSelectionError) {
        let trimmed = String(text.trimmingSpaces)
        self.text = trimmed
        form = try Self.form(of: trimmed)
    }

    /// Whether the text may name more than one device (a selector form, not a plain connection string).
    public var mayMatchMany: Bool {
        if case .connection = form { return false }
        return true
    }

    /// The transport: "udp", "serial" or "ble".
    public var transportName: String {
        switch form {
        case .connection(let connection): return connection.transportName
        case .serial: return "serial"
        case .udp: return "udp"
        case .bleName: return "ble"
        }
    }

    public var description: String { text }

    /// Resolves to targets now: serial selectors through udev/sysfs discovery, UDP selectors by
    /// expansion, BLE name patterns by a BlueZ scan on `bluetoothBus` (the system bus by default).
    /// A plain connection string is one target, not looked up.
    ///
    /// - Parameter label: the name of the target, or with several `LABEL-1`, `LABEL-2`…; without
    ///   one, targets are named by their serial number, advertised name or address.
    /// - Throws: ``TargetSelectionError``: `notFound` when nothing matches (the message names the
    ///   selector, the hint lists what was seen), `transport` when udev or BlueZ cannot be used.
    public func resolve(
        label: String? = nil, bluetoothBus: String = DBusClient.systemBusAddress
    ) async throws(TargetSelectionError) -> [DeviceTarget] {
        switch form {
        case .connection(let connection):
            return [DeviceTarget(name: label, connection: connection, identity: Self.identity(of: connection))]
        case .serial(let filter, _):
            let ports: [SerialPortInfo]
            do {
                ports = try SerialPortDiscovery.ports()
            } catch {
                throw TargetSelectionError(.transport, "listing serial ports for \"\(text)\": \(error.message)", hint: error.hint)
            }
            return try resolve(among: SerialPathGlob.adding(to: ports, for: filter), label: label)
        case .udp(let expansion, let options):
            return expansion.endpoints.enumerated().map { index, endpoint in
                let connection = ConnectionString(target: .udp(host: endpoint.host, port: endpoint.port), options: options)
                return DeviceTarget(
                    name: TargetNaming.name(label: label, index: index, count: expansion.endpoints.count), connection: connection,
                    identity: Self.identity(of: connection))
            }
        case .bleName(let glob, let seconds, let options):
            return try await BLENameScan.targets(glob, seconds: seconds, options: options, selector: text, label: label, busAddress: bluetoothBus)
        }
    }

    /// The targets of a serial selector among `ports` (what ``resolve(label:bluetoothBus:)`` does
    /// with the attached ports); other forms resolve as there, without a BLE scan.
    public func resolve(among ports: [SerialPortInfo], label: String? = nil) throws(TargetSelectionError) -> [DeviceTarget] {
        guard case .serial(let filter, let options) = form else {
            throw TargetSelectionError(.usage, "\"\(text)\" is not a serial selector", hint: "write serial:* or serial:KEY=PATTERN")
        }
        return try SerialTargetMatch.targets(filter, options: options, in: ports, selector: text, label: label)
    }

    /// What a plain connection string tells of the device: its address.
    private static func identity(of connection: ConnectionString) -> DeviceIdentity {
        switch connection.target {
        case .udp: return DeviceIdentity(address: String(ConnectionString(target: connection.target).description.dropFirst("udp:".count)))
        case .serial(.path(let path)): return DeviceIdentity(address: path)
        case .serial(.serialNumber(let serial)), .serial(.usb(_, _, let serial?)): return DeviceIdentity(serialNumber: serial)
        case .serial(.tcp(let host, let port)): return DeviceIdentity(address: "tcp://\(host.contains(":") ? "[\(host)]" : host):\(port)")
        case .serial(.usb), .serial(.auto), .ble(.name): return DeviceIdentity()
        case .ble(.address(let address)): return DeviceIdentity(address: address)
        }
    }

    /// Decides the form: a selector where the connection-string grammar would name one device or
    /// reject the text, else a connection string.
    private static func form(of text: String) throws(TargetSelectionError) -> Form {
        guard let colon = text.firstIndex(of: ":") else { return try connection(text) }
        let scheme = text[..<colon].lowercased()
        let rest = text[text.index(after: colon)...]
        switch scheme {
        case "serial":
            let (body, query) = SelectorQuery.split(rest)
            let filterText: Substring
            if body == "*" {
                filterText = body
            } else if body.hasPrefix("/"), TargetGlob.isPattern(body) {
                filterText = "path=\(body)"
            } else if body.hasPrefix("serial-number="), TargetGlob.isPattern(body) {
                filterText = "serial=\(body.dropFirst("serial-number=".count))"
            } else if body.contains("="), !body.hasPrefix("/"), !body.hasPrefix("usb="), !body.hasPrefix("serial-number="), !body.hasPrefix("tcp://") {
                filterText = body
            } else {
                return try connection(text)
            }
            let filter = try SerialPortFilter(parsing: filterText, selector: text)
            return .serial(filter, try SelectorQuery(parsing: query, transport: "serial", selector: text).options)
        case "udp":
            let body = rest.firstIndex(of: "?").map { rest[..<$0] } ?? rest
            guard UDPTargetExpansion.isSelector(body) else { return try connection(text) }
            let query = rest.dropFirst(body.count + 1)
            let options = try SelectorQuery(parsing: query, transport: "udp", selector: text).options
            return .udp(try UDPTargetExpansion(parsing: body, selector: text), options)
        case "ble":
            let (body, query) = SelectorQuery.split(rest)
            guard body.hasPrefix("name="), body.contains("*") else { return try connection(text) }
            let parsed = try SelectorQuery(parsing: query, transport: "ble", selector: text)
            return .bleName(
                TargetGlob(String(body.dropFirst("name=".count)), ignoringCase: false), scanSeconds: parsed.scanSeconds ?? BLENameScan.defaultSeconds,
                parsed.options)
        default:
            return try connection(text)
        }
    }

    private static func connection(_ text: String) throws(TargetSelectionError) -> Form {
        do {
            return .connection(try ConnectionString(parsing: text))
        } catch {
            throw TargetSelectionError(.usage, error.description, hint: "accepted forms:\n" + error.hint)
        }
    }
}
