import SMPKit
import SMPSerialDiscovery

/// The targets a serial selector names among the attached ports.
enum SerialTargetMatch {
    /// One target per port that `selector` matches, in path order.
    ///
    /// A port's connection is `serial:serial-number=SN` (with `options`) when its USB serial number
    /// names it alone among `ports`, so that it is found again after it re-enumerates under another
    /// node; else its first `/dev/serial/by-id` link, else its node.
    ///
    /// - Throws: ``TargetSelectionError/Kind/notFound`` listing the ports there are when none matches.
    static func targets(
        _ matching: SerialPortSelector, options: ConnectionOptions, in ports: [SerialPortInfo], selector: String, label: String?
    ) throws(TargetSelectionError) -> [DeviceTarget] {
        let matches = ports.filter(matching.matches)
        guard !matches.isEmpty else { throw noMatch(selector, matching: matching, ports: ports) }
        return matches.enumerated().map { index, port in
            let serialNumber = port.usb?.serialNumber
            let connectionTarget: SerialPortSelector
            if let serialNumber, ports.filter({ $0.usb?.serialNumber?.lowercased() == serialNumber.lowercased() }).count == 1 {
                connectionTarget = .serialNumber(serialNumber)
            } else {
                connectionTarget = .path(port.byIDLinks.first ?? port.path)
            }
            return DeviceTarget(
                name: TargetNaming.name(label: label, index: index, count: matches.count),
                connection: ConnectionString(target: .serial(connectionTarget), options: options),
                identity: DeviceIdentity(serialNumber: serialNumber, usbPath: port.usbPath, address: port.path))
        }
    }

    private static func noMatch(_ selector: String, matching: SerialPortSelector, ports: [SerialPortInfo]) -> TargetSelectionError {
        let what = matching == .auto
            ? "no likely SMP device is attached (a Zephyr 2fe3, Nordic 1915 or SEGGER J-Link 1366 USB serial port) for \"\(selector)\""
            : "no serial port matches \"\(selector)\""
        guard !ports.isEmpty else {
            return TargetSelectionError(
                .notFound, what, hint: "no serial ports were found: check the cables, and that the devices enumerate (dmesg | tail)")
        }
        return TargetSelectionError(.notFound, what, hint: (["serial ports present:"] + ports.map { "  \($0)" }).joined(separator: "\n"))
    }
}

/// How the targets of one selector are named.
enum TargetNaming {
    /// `label` for a selector's only target, `label-1`, `label-2`… for several; nil (named by
    /// identity) without a label.
    static func name(label: String?, index: Int, count: Int) -> String? {
        guard let label else { return nil }
        return count == 1 ? label : "\(label)-\(index + 1)"
    }
}
