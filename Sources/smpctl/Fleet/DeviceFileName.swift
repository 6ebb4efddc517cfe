import FoundationEssentials

/// A device's name as one file name: what `{name}` becomes in a path of a many-device run (`fs get
/// /lfs1/log.txt 'logs/{name}.txt'`, docs/many-devices.md).
///
/// Names come from targets files and from devices (USB serial numbers, BLE advertised names), so
/// the name may hold anything. The file name never holds a path separator, a control character or
/// a leading dot, and is never `.` or `..`: those are written `%XX` (their UTF-8 bytes), and so is
/// `%` itself, so that two different names always give two different file names (`a/b` is
/// `a%2Fb`, `a_b` stays `a_b`). A name cannot choose a folder.
enum DeviceFileName {
    /// `name` as one file name.
    static func component(_ name: String) -> String {
        guard !name.isEmpty else { return "%" }
        var result = ""
        for (offset, scalar) in name.unicodeScalars.enumerated() {
            let escaped = scalar == "/" || scalar == "%" || TerminalText.isControl(scalar) || (offset == 0 && scalar == ".")
            guard escaped else {
                result.unicodeScalars.append(scalar)
                continue
            }
            for byte in String(scalar).utf8 {
                let digits = String(byte, radix: 16, uppercase: true)
                result += "%" + (digits.count == 1 ? "0" : "") + digits
            }
        }
        return result
    }

    /// `template` with every `{name}` replaced by ``component(_:)`` of `name`.
    static func expand(_ template: String, name: String) -> String {
        template.replacing("{name}", with: component(name))
    }
}
