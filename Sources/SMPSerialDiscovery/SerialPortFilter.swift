/// The ports a selector such as `serial:vid=2fe3,serial=E661*` names: every condition must match
/// (``SerialPortSelector/matching(_:)``).
///
/// Keys: `vid`, `pid` (four hex digits), `serial` (the USB serial number), `manufacturer`, `product`,
/// `usb-path` (`1-1.2`), `path` (the node or any of its links), and any udev property written in
/// capitals (`ID_MODEL=Zephyr*`). Values are globs (``GlobPattern``); all but `path` and udev
/// properties ignore case.
public struct SerialPortFilter: Sendable, Hashable, CustomStringConvertible {
    /// One `KEY=GLOB`.
    public struct Condition: Sendable, Hashable {
        /// One of ``SerialPortFilter/keys`` (lowercase), or a udev property (capitals).
        public var key: String
        /// The pattern the key's value must match.
        public var glob: GlobPattern

        /// Creates a condition.
        public init(key: String, glob: GlobPattern) {
            self.key = key
            self.glob = glob
        }
    }

    /// The conditions, all of which must hold.
    public var conditions: [Condition]

    /// The keys besides udev properties, for help and errors.
    public static let keys = ["vid", "pid", "serial", "manufacturer", "product", "usb-path", "path"]

    /// Creates a filter from its conditions.
    public init(conditions: [Condition]) {
        self.conditions = conditions
    }

    /// The `path` pattern, when the filter has one.
    public var pathPattern: String? { conditions.first { $0.key == "path" }?.glob.pattern }

    /// Whether `port` passes every condition.
    public func matches(_ port: SerialPortInfo) -> Bool {
        conditions.allSatisfy { condition in
            values(of: condition.key, in: port).contains(where: condition.glob.matches)
        }
    }

    /// What a key names in a port; several values for `path` (the node and its links).
    private func values(of key: String, in port: SerialPortInfo) -> [String] {
        switch key {
        case "vid": return port.usb.map { [$0.vendorIDHex] } ?? []
        case "pid": return port.usb.map { [$0.productIDHex] } ?? []
        case "serial": return port.usb?.serialNumber.map { [$0] } ?? []
        case "manufacturer": return port.usb?.manufacturer.map { [$0] } ?? []
        case "product": return port.usb?.product.map { [$0] } ?? []
        case "usb-path": return port.usbPath.map { [$0] } ?? []
        case "path": return [port.path] + port.links
        default: return port.properties[key].map { [$0] } ?? []
        }
    }

    /// The filter as written after `serial:`: `vid=2fe3,serial=E661*`.
    public var description: String {
        conditions.map { "\($0.key)=\($0.glob)" }.joined(separator: ",")
    }
}
