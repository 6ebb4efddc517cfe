import SMP
import SMPBluetooth
import SMPKit
import SMPSerialDiscovery

/// The targets of `ble:name=GLOB`: a BlueZ scan, and every device whose advertised name matches.
enum BLENameScan {
    /// The default scan, when the selector has no `?scan=SECONDS`.
    static let defaultSeconds = 5.0

    /// Scans for `seconds` (through the adapter of `options`, else the first) and returns one
    /// `ble:ADDRESS` target per device whose name matches, named by its advertised name (or by
    /// `label`), in name order.
    static func targets(
        _ glob: GlobPattern, seconds: Double, options: ConnectionOptions, selector: String, label: String?, busAddress: String
    ) async throws(TargetSelectionError) -> [DeviceTarget] {
        let devices: [BLEDevice]
        do {
            devices = try await BLEScanner.scan(duration: .seconds(seconds), adapter: options.adapter, busAddress: busAddress)
        } catch {
            throw TargetSelectionError(.transport, "scanning for \"\(selector)\": \(error.message)", hint: error.advice)
        }
        return try targets(among: devices, glob, options: options, selector: selector, seconds: seconds, label: label)
    }

    /// The targets among the devices a scan found.
    static func targets(
        among devices: [BLEDevice], _ glob: GlobPattern, options: ConnectionOptions, selector: String, seconds: Double, label: String?
    ) throws(TargetSelectionError) -> [DeviceTarget] {
        let matches = devices.filter { $0.name.map(glob.matches) ?? false }
            .sorted { ($0.name ?? "", $0.address) < ($1.name ?? "", $1.address) }
        guard !matches.isEmpty else {
            let seen = devices.map { "  \($0.address)  \($0.name ?? "(no name)")" }
            let scan = "a \(seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)) s scan"
            throw TargetSelectionError(
                .notFound, "no Bluetooth LE device named like \"\(glob)\" was heard in \(scan) (\"\(selector)\")",
                hint: seen.isEmpty
                    ? "no devices were heard at all: are they advertising and in range? scan longer with ?scan=SECONDS"
                    : (["devices heard (scan longer with ?scan=SECONDS):"] + seen).joined(separator: "\n"))
        }
        return matches.enumerated().map { index, device in
            DeviceTarget(
                name: TargetNaming.name(label: label, index: index, count: matches.count) ?? device.name,
                connection: ConnectionString(target: .ble(.address(device.address)), options: options),
                identity: DeviceIdentity(address: device.address))
        }
    }
}
