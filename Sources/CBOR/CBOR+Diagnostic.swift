import JSON

extension CBOR: CustomStringConvertible {
    /// The item in CBOR diagnostic notation (RFC 8949 §8), e.g. `{"r": "hi", "n": [1, h'ff']}`.
    public var diagnosticDescription: String {
        switch self {
        case .unsigned(let n): return String(n)
        case .negative(let n): return n == UInt64.max ? "-18446744073709551616" : "-\(n + 1)"
        case .bytes(let b): return "h'" + b.map { hexByte($0) }.joined() + "'"
        case .text(let s): return JSONValue.quoted(s)  // as JSON writes text (RFC 8949 §8)
        case .array(let a): return "[" + a.map(\.diagnosticDescription).joined(separator: ", ") + "]"
        case .map(let m):
            return "{" + m.map { "\($0.key.diagnosticDescription): \($0.value.diagnosticDescription)" }
                .joined(separator: ", ") + "}"
        case .tagged(let tag, let item): return "\(tag)(\(item.diagnosticDescription))"
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .undefined: return "undefined"
        case .simple(let v):
            switch v {
            case 20: return "false"
            case 21: return "true"
            case 22: return "null"
            case 23: return "undefined"
            default: return "simple(\(v))"
            }
        case .float(let d): return floatDescription(d)
        }
    }

    /// The same as ``diagnosticDescription``.
    public var description: String { diagnosticDescription }
}

private func hexByte(_ byte: UInt8) -> String {
    let digits = Array("0123456789abcdef")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
}

private func floatDescription(_ value: Double) -> String {
    if value.isNaN { return "NaN" }
    if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
    let text = "\(value)"  // shortest round-trip digits, e.g. "1e+300", "6.103515625e-05"
    let parts = text.split(separator: "e", maxSplits: 1)
    var mantissa = String(parts[0])
    if !mantissa.contains(".") { mantissa += ".0" }
    guard parts.count == 2 else { return mantissa }
    var exponent = Substring(parts[1])
    var sign = ""
    if let first = exponent.first, first == "+" || first == "-" {
        sign = String(first)
        exponent = exponent.dropFirst()
    }
    let digits = exponent.drop { $0 == "0" }
    return mantissa + "e" + sign + (digits.isEmpty ? "0" : String(digits))
}
