import FoundationEssentials

/// Completion candidates for a connection string (`-c`): the schemes and the serial ports that
/// exist now, found by listing directories only (no device is opened, nothing is asked of udev), so
/// that a Tab press is instant and never disturbs a device.
enum ConnectionCompletion {
    /// The schemes and forms that need no lookup (docs/connection-strings.md).
    static let forms = ["udp:", "serial:", "ble:", "serial:tcp://", "serial:usb=", "serial:auto", "ble:name="]

    /// Where serial ports are looked for, under the device directory: stable links first.
    static let portFolders = ["serial/by-id", "smp"]
    /// Name prefixes of the ports directly in the device directory (USB CDC ACM and USB serial adapters).
    static let portPrefixes = ["ttyACM", "ttyUSB"]

    /// The candidates that continue `prefix`: ``forms`` and `serial:PORT` for every port present
    /// (`prefix` itself is not offered again).
    ///
    /// `SMPCTL_DEVICE_DIRECTORY` in `environment` replaces `/dev` (for tests).
    static func candidates(prefix: String, environment: [String: String]) -> [String] {
        let devices = environment["SMPCTL_DEVICE_DIRECTORY"].flatMap { $0.isEmpty ? nil : $0 } ?? "/dev"
        let ports = serialPorts(in: devices).map { "serial:" + $0 }
        return (forms + ports).filter { $0.hasPrefix(prefix) && $0 != prefix }
    }

    /// The serial ports under `devices`: the links in `serial/by-id` and `smp`, then `ttyACM*` and
    /// `ttyUSB*`, each list sorted.
    static func serialPorts(in devices: String) -> [String] {
        let files = FileManager.default
        var ports: [String] = []
        for folder in portFolders {
            let path = devices + "/" + folder
            ports += ((try? files.contentsOfDirectory(atPath: path)) ?? []).sorted().map { path + "/" + $0 }
        }
        let names = (try? files.contentsOfDirectory(atPath: devices)) ?? []
        ports += names.filter { name in portPrefixes.contains { name.hasPrefix($0) } }.sorted().map { devices + "/" + $0 }
        return ports
    }
}
