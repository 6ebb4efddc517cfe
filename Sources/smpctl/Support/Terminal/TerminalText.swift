#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

/// Text that came from a device or a file, made safe to print at a terminal, and what the
/// terminal allows (docs/progress-and-logging.md, "Text from devices").
///
/// A device name, a label in a targets file, an advertised BLE name, a USB serial number, an echo
/// or an error reason may hold control characters: an escape sequence in it would set the
/// window's title, clear the screen or move the cursor over the live view. Every line smpctl
/// prints for people passes through ``visible(_:)``, which writes each control character as an
/// escape (`\e`, `\x07`, `\u{9b}`); JSON output escapes them by its own rules.
enum TerminalText {
    /// `text` with every control character (C0 but line feed and tab, DEL, C1) written as a
    /// visible escape.
    static func visible(_ text: String) -> String {
        visible(text, keeping: ["\n", "\t"])
    }

    /// `text` as one line: line feeds and tabs are escaped too (names, table cells).
    static func visibleLine(_ text: String) -> String {
        visible(text, keeping: [])
    }

    private static func visible(_ text: String, keeping: Set<Unicode.Scalar>) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0) && !keeping.contains($0) }) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if keeping.contains(scalar) || !isControl(scalar) {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\u{1B}": result += "\\e"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x80: result += "\\x" + hex(scalar.value)
            default: result += "\\u{" + String(scalar.value, radix: 16) + "}"
            }
        }
        return result
    }

    /// Whether `scalar` is a control character: C0, DEL or C1.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }

    /// Whether smpctl may move the cursor on `descriptor` (redraw a progress bar or a live view
    /// in place): a terminal whose `TERM` is not `dumb`.
    static func allowsCursorMovement(on descriptor: Int32, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        isatty(descriptor) == 1 && environment["TERM"] != "dumb"
    }

    /// Whether colours may be printed: not when `NO_COLOR` is set to anything but the empty
    /// string (no-color.org), nor at a `dumb` terminal.
    static func allowsColour(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }
}
