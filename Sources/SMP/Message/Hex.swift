/// Hexadecimal rendering and parsing of bytes, for frame dumps and raw requests.
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// Lower-case hex digits, optionally separated.
    public static func string(_ bytes: some Sequence<UInt8>, separator: String = "") -> String {
        bytes.map { byte in
            String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]], as: UTF8.self)
        }.joined(separator: separator)
    }

    /// Parses hex digits, ignoring white space, colons and an optional `0x`; nil when malformed.
    public static func bytes(_ text: String) -> [UInt8]? {
        var cleaned = Array(text.utf8.filter { ![UInt8(ascii: " "), UInt8(ascii: ":"), 0x0A, 0x0D, 0x09].contains($0) })
        if cleaned.count >= 2, cleaned[0] == UInt8(ascii: "0"), cleaned[1] | 0x20 == UInt8(ascii: "x") {
            cleaned.removeFirst(2)
        }
        guard cleaned.count % 2 == 0 else { return nil }
        var result: [UInt8] = []
        result.reserveCapacity(cleaned.count / 2)
        var index = 0
        while index < cleaned.count {
            guard let high = nibble(cleaned[index]), let low = nibble(cleaned[index + 1]) else { return nil }
            result.append(high << 4 | low)
            index += 2
        }
        return result
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
