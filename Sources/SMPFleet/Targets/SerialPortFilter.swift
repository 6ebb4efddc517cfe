import SMPSerialDiscovery

/// The serial ports a selector such as `serial:vid=2fe3,serial=E661*` names: every filter must match.
///
/// Keys: `vid`, `pid` (four hex digits), `serial` (the USB serial number), `manufacturer`, `product`,
/// `usb-path` (`1-1.2`), `path` (the node or any of its links), and any udev property written in
/// capitals (`ID_MODEL=Zephyr*`). Values are globs (``TargetGlob``); all but `path` and udev
/// properties ignore case. `serial:*` is the empty filter list: every likely SMP device.
struct SerialPortFilter: Sendable, Hashable, CustomStringConvertible {
    /// One `KEY=GLOB`.
    struct Condition: Sendable, Hashable {
        var key: String
        var glob: TargetGlob
    }

    /// The conditions, all of which must hold; none for `serial:*`.
    var conditions: [Condition]

    /// The keys besides udev properties, for help and errors.
    static let keys = ["vid", "pid", "serial", "manufacturer", "product", "usb-path", "path"]

    /// Parses `KEY=GLOB[,KEY=GLOB…]` (the text after `serial:`, without its options), or `*`.
    init(parsing text: Substring, selector: String) throws(TargetSelectionError) {
        guard text != "*" else {
            conditions = []
            return
        }
        var conditions: [Condition] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let equals = item.firstIndex(of: "="), equals != item.startIndex else {
                throw Self.usage(selector, "\"\(item)\" is not KEY=PATTERN")
            }
            let key = String(item[..<equals])
            let value = String(item[item.index(after: equals)...])
            guard !value.isEmpty else { throw Self.usage(selector, "\"\(key)=\" has no pattern") }
            // A key of ours in any case (VID), else a udev property in capitals.
            let isProperty = !Self.keys.contains(key.lowercased())
            guard !isProperty || key.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber || $0 == "_") }) else {
                throw Self.usage(selector, "unknown key \"\(key)\"")
            }
            let name = isProperty ? key : key.lowercased()
            guard !conditions.contains(where: { $0.key == name }) else { throw Self.usage(selector, "\"\(key)\" is given twice") }
            conditions.append(Condition(key: name, glob: TargetGlob(value, ignoringCase: !(isProperty || name == "path"))))
        }
        self.conditions = conditions
    }

    /// Whether `port` passes every condition; `serial:*` passes the likely SMP devices.
    func matches(_ port: SerialPortInfo) -> Bool {
        guard !conditions.isEmpty else { return port.isLikelySMP }
        return conditions.allSatisfy { condition in
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

    var description: String {
        conditions.isEmpty ? "*" : conditions.map { "\($0.key)=\($0.glob)" }.joined(separator: ",")
    }

    private static func usage(_ selector: String, _ problem: String) -> TargetSelectionError {
        TargetSelectionError(
            .usage, "invalid serial selector \"\(selector)\": \(problem)",
            hint: "write serial:* (every likely SMP device) or serial:KEY=PATTERN[,KEY=PATTERN…] with KEY one of "
                + "\(keys.joined(separator: ", ")) or a udev property in capitals (ID_MODEL); * and ? are wildcards, "
                + "e.g. serial:vid=2fe3,serial=E661*")
    }
}
