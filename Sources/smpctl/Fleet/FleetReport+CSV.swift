import FoundationEssentials
import SMP
import SMPFleet

/// The report of a many-device run as CSV (RFC 4180): one row per device, for spreadsheets and
/// production records (docs/many-devices.md, "The report").
extension FleetReport {
    /// The column names.
    static let csvHeader = [
        "index", "name", "connection", "transport", "serial_number", "usb_path", "address", "status", "version_before",
        "hash_before", "version_after", "hash_after", "seconds", "retries", "phases", "error_code", "error_name", "error",
        "hint", "note",
    ]

    /// The report as CSV text, with a header line and CR LF line ends.
    var csv: String {
        let rows = [Self.csvHeader] + devices.map(\.csvRow)
        return rows.map { $0.map(Self.csvField).joined(separator: ",") + "\r\n" }.joined()
    }

    /// A field, quoted when it holds a comma, a quote or a line end.
    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacing("\"", with: "\"\"") + "\""
    }
}

extension DeviceRecord {
    var csvRow: [String] {
        [
            String(index + 1), target.name, target.connection.description, target.connection.transport.rawValue,
            target.identity.serialNumber ?? "", target.identity.usbPath ?? "", target.identity.address ?? "", outcome.rawValue,
            Self.running(before, \.version), Self.running(before) { $0.hash.map { Hex.string($0) } ?? "" },
            Self.running(after, \.version), Self.running(after) { $0.hash.map { Hex.string($0) } ?? "" },
            Self.decimals(seconds), String(retries),
            phases.map { "\($0.name)=\(Self.decimals($0.seconds))" }.joined(separator: ";"),
            failure.map { String($0.code) } ?? "", failure?.name ?? "", failure?.message ?? "", failure?.hint ?? "", note ?? "",
        ]
    }

    /// A value of the image each image number runs (its active slot): `1.2.0`, or `0=1.2.0 1=1.0.0`
    /// with several images; empty when the list was not read.
    static func running(_ images: [ImageSlotState]?, _ value: (ImageSlotState) -> String) -> String {
        guard let images else { return "" }
        let active = images.filter(\.active)
        let shown = active.isEmpty ? images.filter { $0.slot == 0 } : active
        if shown.count == 1 { return value(shown[0]) }
        return shown.map { "\($0.image)=\(value($0))" }.joined(separator: " ")
    }

    /// Seconds with 3 decimals.
    static func decimals(_ seconds: Double) -> String {
        let milliseconds = Int((seconds * 1000).rounded())
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
