/// A Bluetooth LE peripheral as BlueZ reports it (scanned now, or known from before).
public struct BLEDevice: Sendable, Hashable {
    /// `AA:BB:CC:DD:EE:FF`.
    public var address: String
    /// The advertised name, else BlueZ's alias; nil when it has none.
    public var name: String?
    /// Signal strength in dBm when it was last heard advertising; nil for a device only known from before.
    public var rssi: Int?
    /// The service UUIDs it advertises or offers (lower case).
    public var uuids: [String]
    /// Whether BlueZ holds a connection to it.
    public var isConnected: Bool
    /// Whether it is paired.
    public var isPaired: Bool
    /// Whether the pairing's keys are stored (a bond kept across connections and restarts).
    public var isBonded: Bool
    /// Whether BlueZ trusts it (lets it connect and use services without asking an agent).
    public var isTrusted: Bool
    /// BlueZ's object path.
    public var path: String

    /// Whether it offers the SMP service.
    public var offersSMP: Bool { uuids.contains(BlueZ.smpServiceUUID) }

    /// The SMP GATT service's UUID, as BlueZ spells it (lower case).
    public static let smpServiceUUID = BlueZ.smpServiceUUID

    /// The Nordic DFU service it advertises or offers, if any.
    public var nordicDFU: NordicDFUService? {
        if uuids.contains(NordicDFUService.secure.uuid) { return .secure }
        if uuids.contains(NordicDFUService.legacy.uuid) { return .legacy }
        return nil
    }

    /// Whether it offers something smpctl updates: SMP or a Nordic DFU service.
    public var offersUpdates: Bool { offersSMP || nordicDFU != nil }

    /// Reads a Device1 object's properties; nil without an address.
    init?(path: String, properties: [String: DBusValue]) {
        guard let address = properties["Address"]?.stringValue else { return nil }
        self.address = address.uppercased()
        self.path = path
        name = properties["Name"]?.stringValue ?? properties["Alias"]?.stringValue.flatMap { alias in
            // BlueZ's alias of a nameless device is its address with dashes.
            alias.replacingDashes == address.uppercased() ? nil : alias
        }
        rssi = properties["RSSI"]?.integerValue.map { Int($0) }
        uuids = (properties["UUIDs"]?.stringArray ?? []).map { $0.lowercased() }
        isConnected = properties["Connected"]?.boolValue ?? false
        isPaired = properties["Paired"]?.boolValue ?? false
        isBonded = properties["Bonded"]?.boolValue ?? false
        isTrusted = properties["Trusted"]?.boolValue ?? false
    }
}

/// Which peripherals a scan or a connection looks for.
public struct BLEDeviceFilter: Sendable, Hashable {
    /// How the device is named.
    public enum Selector: Sendable, Hashable {
        /// Any device (or only SMP ones, with ``BLEDeviceFilter/requireSMP``).
        case any
        /// By address, any case.
        case address(String)
        /// By advertised name (or alias), exactly.
        case name(String)
    }

    /// How the device is named.
    public var selector: Selector
    /// Only devices that advertise the SMP service.
    public var requireSMP: Bool
    /// Only devices heard at least this strong (dBm).
    public var minimumRSSI: Int?

    /// Creates a filter.
    public init(_ selector: Selector = .any, requireSMP: Bool = false, minimumRSSI: Int? = nil) {
        self.selector = selector
        self.requireSMP = requireSMP
        self.minimumRSSI = minimumRSSI
    }

    /// Whether a device passes.
    public func matches(_ device: BLEDevice) -> Bool {
        switch selector {
        case .any: break
        case .address(let address): guard device.address == address.uppercased() else { return false }
        case .name(let name): guard device.name == name else { return false }
        }
        if requireSMP, !device.offersSMP { return false }
        if let minimumRSSI, (device.rssi ?? Int.min) < minimumRSSI { return false }
        return true
    }
}

extension BLEDeviceFilter.Selector {
    /// What messages name: `ble:AA:BB:…`, `ble:name=…`.
    var endpoint: String {
        switch self {
        case .address(let address): "ble:\(address.uppercased())"
        case .name(let name): "ble:name=\(name)"
        case .any: "ble"
        }
    }
}

extension String {
    fileprivate var replacingDashes: String { String(map { $0 == "-" ? ":" : $0 }).uppercased() }
}

/// The Nordic DFU service a device offers: its bootloader's, or its application's buttonless
/// entry into it (the same service).
public enum NordicDFUService: String, Sendable, Hashable {
    /// Secure DFU (0xFE59; nRF5 SDK 12–17): a bootloader or buttonless entry.
    case secure
    /// Legacy DFU (`00001530-1212-EFDE-1523-785FEABCD123`; nRF5 SDK ≤ 11): a bootloader or buttonless entry.
    case legacy

    /// The service UUID, as BlueZ spells it (lower case).
    public var uuid: String {
        switch self {
        case .secure: "0000fe59-0000-1000-8000-00805f9b34fb"
        case .legacy: "00001530-1212-efde-1523-785feabcd123"
        }
    }
}
