import JSON
import SMP
import SMPKit
import SMPSerial
import SMPSerialDiscovery

/// What `smpctl ports` prints: the ports as a table with their by-id links, or as JSON.
struct PortReport {
    /// The ports to show.
    var ports: [SerialPortInfo]
    /// Every port attached, to pick the shortest selector naming each.
    var attached: [SerialPortInfo]
    /// Probe results by path, with `--probe`.
    var probes: [String: SerialPortProbe]?
    /// How many attached ports are not shown (not likely SMP devices, without `--all`).
    var hidden: Int = 0
    /// Whether to say that pseudo-terminals are listed only when named (a listing without a selector).
    var pseudoTerminalNote = false

    /// `{"ports":[…]}` plus any extra members.
    func json(extra: [(String, JSONValue)] = []) -> JSONValue {
        .object([("ports", .array(ports.map(json(for:))))] + extra)
    }

    /// One port's JSON object (docs/serial.md lists the fields).
    func json(for port: SerialPortInfo) -> JSONValue {
        let text: (String?) -> JSONValue = { $0.map(JSONValue.string) ?? .null }
        let usb: JSONValue = port.usb.map { usb in
            .object([
                ("vendorId", .string(usb.vendorIDHex)), ("productId", .string(usb.productIDHex)),
                ("manufacturer", text(usb.manufacturer)), ("product", text(usb.product)), ("serialNumber", text(usb.serialNumber)),
                ("bcdDevice", text(usb.bcdDevice)), ("interface", usb.interfaceNumber.map { .int(Int64($0)) } ?? .null),
            ])
        } ?? .null
        return .object([
            ("path", .string(port.path)), ("name", .string(port.name)),
            ("connection", .string("serial:\(SerialPortSelector.naming(port, among: attached))")),
            ("byId", .array(port.byIDLinks.map(JSONValue.string))), ("byPath", .array(port.byPathLinks.map(JSONValue.string))),
            ("links", .array(port.links.map(JSONValue.string))),
            ("bus", text(port.bus)), ("driver", text(port.driver)), ("usb", usb),
            ("likelySMP", .bool(port.isLikelySMP)), ("reason", .string(port.assessment.reason)),
            ("probe", probes.map { $0[port.path]?.json ?? .null } ?? .null),
        ])
    }

    /// The table, the by-id links and a note on hidden ports.
    var text: String {
        var sections: [String] = []
        if ports.isEmpty {
            sections.append(attached.isEmpty ? "no serial ports found" : "no likely SMP devices found")
        } else {
            var table = Table(["PATH", "VID:PID", "DEVICE", "SERIAL", "IF", "DRIVER", "SMP"] + (probes == nil ? [] : ["PROBE"]))
            for port in ports { table.add(row(for: port)) }
            sections.append(table.rendered)
            let links = ports.flatMap { port in port.byIDLinks.map { [port.path, $0] } }
            if !links.isEmpty {
                var linkTable = Table(["PATH", "BY-ID LINK"])
                for link in links { linkTable.add(link) }
                sections.append(linkTable.rendered)
            }
        }
        var notes: [String] = []
        if hidden > 0 {
            notes.append(
                hidden == 1
                    ? "1 more serial port is not a known SMP device: --all lists it, --all --probe asks it"
                    : "\(hidden) more serial ports are not known SMP devices: --all lists them, --all --probe asks them")
        }
        if pseudoTerminalNote { notes.append("pseudo-terminals are listed only when named: smpctl ports /dev/pts/N") }
        if !notes.isEmpty { sections.append(notes.joined(separator: "\n")) }
        return sections.joined(separator: "\n\n")
    }

    private func row(for port: SerialPortInfo) -> [String] {
        let usb = port.usb
        let names = [usb?.manufacturer, usb?.product].compactMap { $0 }.joined(separator: " ")
        let device = !names.isEmpty ? names : port.bus.map { "(\($0))" } ?? "-"
        var row = [
            port.path, usb?.ids ?? "-", device, usb?.serialNumber ?? "-",
            usb?.interfaceNumber.map { Hex.string([UInt8(clamping: $0)]) } ?? "-", port.driver ?? "-", port.isLikelySMP ? "yes" : "-",
        ]
        if let probes { row.append(probes[port.path]?.summary ?? "-") }
        return row
    }
}
