import SMP
import SMPSerial

/// Options of a connection string (`?timeout=5&mtu=1024`), each valid for some transports.
public struct ConnectionOptions: Sendable, Hashable {
    /// Response timeout in seconds (`timeout`).
    public var timeout: Double?
    /// Retries of retry-safe requests (`retries`).
    public var retries: Int?
    /// Link MTU in bytes (`mtu`): UDP datagram limit, serial message size, or BLE ATT MTU.
    public var mtu: Int?
    /// Serial baud rate (`baud`).
    public var baud: Int?
    /// Serial line length (`line`).
    public var lineLength: Int?
    /// Serial RTS/CTS flow control (`flow=rtscts|none`).
    public var hardwareFlowControl: Bool?
    /// Bluetooth adapter (`adapter=hci1`).
    public var adapter: String?
    /// Pair before use (`pair=1`).
    public var pair: Bool?
    /// The passkey to enter when a BLE device asks for one (`passkey=012345`); pairs an unpaired device.
    public var passkey: UInt32?
    /// Accept a BLE numeric comparison without asking anyone (`confirm=1`); pairs an unpaired device.
    public var acceptsAnyNumber: Bool?
    /// Serial framing (`framing=console|raw|shell`).
    public var framing: SerialFraming?
    /// Serial console lines written back to back before a pause (`burst`; 0: no pacing).
    public var burst: Int?
    /// The pause that `burst` lines span, in milliseconds (`gap`).
    public var gapMilliseconds: Int?
    /// The device's SMP buffer size to assume when it does not report it (`buf-size`).
    public var bufferSize: Int?
    /// Open the serial port at this baud rate and close it again before connecting (`touch`):
    /// the "1200-baud touch" that restarts an Adafruit nRF52 application into its DFU bootloader.
    public var touchBaudRate: Int?
    /// DTLS on a UDP link (`dtls=1` and its credentials).
    public var dtls = DTLSOptions()

    /// No options.
    public init() {}

    /// One option the grammar knows.
    struct Definition: Sendable {
        let name: String
        let transports: Set<Transport>
        let help: String
        let apply: @Sendable (inout ConnectionOptions, String) -> String?
    }

    /// An option whose value is a whole number within `range`, stored at `keyPath`.
    private static func whole(
        _ name: String, _ transports: Set<Transport>, help: String, range: ClosedRange<Int>, problem: String,
        _ keyPath: WritableKeyPath<ConnectionOptions, Int?> & Sendable
    ) -> Definition {
        Definition(name: name, transports: transports, help: help) { options, value in
            guard let number = Int(value), range.contains(number) else { return problem }
            options[keyPath: keyPath] = number
            return nil
        }
    }

    /// Every option, with the transports it applies to and how its value is read.
    static let definitions: [Definition] = [
        Definition(name: "timeout", transports: Set(Transport.allCases), help: "seconds, e.g. timeout=2.5") { options, value in
            guard let seconds = Double(value), seconds > 0, seconds <= 3600 else { return "expected seconds greater than 0 and at most 3600" }
            options.timeout = seconds
            return nil
        },
        whole("retries", Set(Transport.allCases), help: "0–10", range: 0...10, problem: "expected a whole number from 0 to 10", \.retries),
        whole("mtu", [.serial, .ble], help: "bytes, 23–65535", range: 23...65_535, problem: "expected bytes from 23 to 65535", \.mtu),
        // UDP needs room for the IP and UDP headers and one useful SMP message (UDPTransport).
        whole("mtu", [.udp], help: "bytes, 128–65535", range: 128...65_535, problem: "expected bytes from 128 to 65535", \.mtu),
        whole("baud", [.serial], help: "e.g. 115200", range: 50...20_000_000, problem: "expected a baud rate such as 115200", \.baud),
        whole(
            "line", [.serial], help: "line length in bytes, 16–8192", range: 16...8192, problem: "expected a line length from 16 to 8192",
            \.lineLength),
        Definition(name: "flow", transports: [.serial], help: "rtscts or none") { options, value in
            switch value.lowercased() {
            case "rtscts": options.hardwareFlowControl = true
            case "none": options.hardwareFlowControl = false
            default: return "expected rtscts or none"
            }
            return nil
        },
        Definition(name: "adapter", transports: [.ble], help: "e.g. hci0") { options, value in
            guard value.hasPrefix("hci"), value.dropFirst(3).isASCIIDigits else { return "expected an adapter name such as hci0" }
            options.adapter = value
            return nil
        },
        Definition(name: "pair", transports: [.ble], help: "0 or 1") { options, value in
            guard let on = flag(value) else { return "expected 0 or 1" }
            options.pair = on
            return nil
        },
        Definition(name: "passkey", transports: [.ble], help: "the six digits the device displays, e.g. passkey=012345") { options, value in
            guard value.count == 6, value.isASCIIDigits, let passkey = UInt32(value) else { return "expected six digits, 000000 to 999999" }
            options.passkey = passkey
            return nil
        },
        Definition(name: "confirm", transports: [.ble], help: "1: accept a numeric comparison without asking (no protection against a man in the middle)") { options, value in
            guard let accept = flag(value) else { return "expected 0 or 1" }
            options.acceptsAnyNumber = accept
            return nil
        },
        Definition(name: "framing", transports: [.serial], help: "console, raw or shell") { options, value in
            guard let framing = SerialFraming(rawValue: value.lowercased()) else { return "expected console, raw or shell" }
            options.framing = framing
            return nil
        },
        whole(
            "burst", [.serial], help: "console lines (raw framing: 4-byte pieces) sent back to back, 0–1024 (0: no pacing)", range: 0...1024,
            problem: "expected a whole number of lines from 0 to 1024", \.burst),
        whole(
            "gap", [.serial], help: "milliseconds a burst of lines spans, 0–1000", range: 0...1000,
            problem: "expected milliseconds from 0 to 1000", \.gapMilliseconds),
        whole(
            "buf-size", Set(Transport.allCases), help: "the device's SMP buffer in bytes, 64–65535", range: 64...65_535,
            problem: "expected bytes from 64 to 65535", \.bufferSize),
        whole(
            "touch", [.serial], help: "baud rate of a touch before a Nordic DFU upgrade, e.g. touch=1200", range: 50...20_000_000,
            problem: "expected a baud rate such as 1200", \.touchBaudRate),
    ] + DTLSOptions.definitions

    /// A yes/no value: `1`/`true`/`yes` or `0`/`false`/`no` (any case); nil for anything else.
    static func flag(_ value: String) -> Bool? {
        switch value.lowercased() {
        case "1", "true", "yes": return true
        case "0", "false", "no": return false
        default: return nil
        }
    }

    /// The serial line pacing the options give, if they give one (`burst`, `gap` or both).
    public var linePacing: LinePacing? {
        guard burst != nil || gapMilliseconds != nil else { return nil }
        let defaults = LinePacing.zephyrDefault
        return LinePacing(burst: burst ?? defaults.burst, gap: gapMilliseconds.map { .milliseconds($0) } ?? defaults.gap)
    }

    /// The names of the options `transport` takes, in the grammar's order.
    public static func names(for transport: Transport) -> [String] {
        var names: [String] = []
        for definition in definitions where definition.transports.contains(transport) && !names.contains(definition.name) {
            names.append(definition.name)
        }
        return names
    }

    /// The names of every option of the grammar, in its order.
    public static var allNames: [String] {
        var names: [String] = []
        for definition in definitions where !names.contains(definition.name) { names.append(definition.name) }
        return names
    }

    /// Sets the option `name` to `value` as written in a connection string (`baud`, `"115200"`)
    /// for a connection over `transport`, replacing any value it had.
    ///
    /// - Throws: ``ConnectionStringError`` naming the option when `transport` does not take it
    ///   or the value is out of its range; its hint gives the accepted values.
    public mutating func set(_ name: String, to value: String, transport: Transport) throws(ConnectionStringError) {
        let item = "\(name)=\(value)"
        let applicable = Self.definitions.filter { $0.transports.contains(transport) }
        guard let definition = applicable.first(where: { $0.name == name.lowercased() }) else {
            throw ConnectionStringError(input: item, part: name, problem: Self.unknown(for: transport), hint: ConnectionStringError.examples)
        }
        if let problem = definition.apply(&self, value) {
            throw ConnectionStringError(input: item, part: item, problem: problem, hint: "\(definition.name): \(definition.help)")
        }
    }

    /// The problem of a name that `transport` does not take: `unknown option for udp; udp takes timeout, …`.
    static func unknown(for transport: Transport) -> String {
        "unknown option for \(transport); \(transport) takes \(names(for: transport).joined(separator: ", "))"
    }

    /// The options that are set, as name/value pairs in the grammar's order (`[("baud", "115200")]`);
    /// a secret's value (`psk`) as `<hidden>` (``ConnectionSecrets``).
    public var items: [(name: String, value: String)] { queryItems.map { (name: $0.0, value: $0.1) } }

    /// The options that are set, as name/value pairs in the grammar's order.
    var queryItems: [(String, String)] {
        var items: [(String, String)] = []
        if let timeout { items.append(("timeout", timeout == timeout.rounded() ? String(Int(timeout)) : String(timeout))) }
        if let retries { items.append(("retries", String(retries))) }
        if let mtu { items.append(("mtu", String(mtu))) }
        if let baud { items.append(("baud", String(baud))) }
        if let lineLength { items.append(("line", String(lineLength))) }
        if let hardwareFlowControl { items.append(("flow", hardwareFlowControl ? "rtscts" : "none")) }
        if let adapter { items.append(("adapter", adapter)) }
        if let pair { items.append(("pair", pair ? "1" : "0")) }
        if let passkey { items.append(("passkey", Self.passkeyText(passkey))) }
        if let acceptsAnyNumber { items.append(("confirm", acceptsAnyNumber ? "1" : "0")) }
        if let framing { items.append(("framing", framing.rawValue)) }
        if let burst { items.append(("burst", String(burst))) }
        if let gapMilliseconds { items.append(("gap", String(gapMilliseconds))) }
        if let bufferSize { items.append(("buf-size", String(bufferSize))) }
        if let touchBaudRate { items.append(("touch", String(touchBaudRate))) }
        return items + dtls.queryItems
    }
}
