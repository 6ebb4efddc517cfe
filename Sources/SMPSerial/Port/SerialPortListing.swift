/// The serial ports present, for an error message that says which ones do exist.
///
/// Deliberately simple (no udev): USB serial nodes in `/dev` and the stable links udev makes in
/// `/dev/serial/by-id`. `smpctl ports` gives the full picture.
enum SerialPortListing {
    /// `/dev/ttyACM*`, `/dev/ttyUSB*` and `/dev/serial/by-id/*`, sorted, nodes first.
    static func present(devices: String = "/dev", byID: String = "/dev/serial/by-id") -> [String] {
        let nodes = FileSystem.entries(of: devices)
            .filter { $0.hasPrefix("ttyACM") || $0.hasPrefix("ttyUSB") }
            .sorted { naturalOrder($0) < naturalOrder($1) }
            .map { "\(devices)/\($0)" }
        let links = FileSystem.entries(of: byID).sorted().map { "\(byID)/\($0)" }
        return nodes + links
    }

    /// "ttyACM10" → ("ttyACM", 10), so that ttyACM2 comes before ttyACM10.
    private static func naturalOrder(_ name: String) -> (String, Int) {
        let digits = name.reversed().prefix(while: \.isNumber).count
        return (String(name.dropLast(digits)), Int(name.suffix(digits)) ?? -1)
    }
}
