#if canImport(Glibc)
import Glibc
#endif

/// Text helpers the standard library lacks (smpctl links FoundationEssentials, not Foundation).
extension String {
    /// `format` filled in with `arguments` as C's `printf` does (`%.1f`, `%3ld%%`, `%02ld`): the
    /// same digits and rounding. An `Int` takes `%ld`.
    init(printf format: String, _ arguments: any CVarArg...) {
        self = withVaList(arguments) { list in
            var buffer = [CChar](repeating: 0, count: 256)
            let needed = Int(vsnprintf(&buffer, buffer.count, format, list))
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + (needed >= buffer.count ? "…" : "")
        }
    }

    /// The string without tabs and spaces (Unicode space separators) at either end.
    var trimmingSpaces: String {
        let isSpace = { (character: Character) in
            character.unicodeScalars.allSatisfy { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
        }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }

    /// The string cut to `width` characters, or filled with spaces after it up to `width`.
    func padded(to width: Int) -> String {
        count >= width ? String(prefix(width)) : self + String(repeating: " ", count: width - count)
    }
}
