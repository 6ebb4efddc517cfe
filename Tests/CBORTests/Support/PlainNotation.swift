import CBOR

extension CBOR {
    /// The item in the plain notation of `Tests/Scripts/cbor/cbor2_crosscheck.py`, which both
    /// codecs print alike: `u1`, `n0` (-1), `b0102`, `t61`, `[u1,u2]`, `{t61:u1}`, `g1(u0)`, `F`, `T`,
    /// `N`, `U`, `s16`, `f3ff8000000000000` (the double's bits), `fNaN`.
    var plainNotation: String {
        switch self {
        case .unsigned(let n): return "u\(n)"
        case .negative(let n): return "n\(n)"
        case .bytes(let b): return "b" + b.hex
        case .text(let s): return "t" + Array(s.utf8).hex
        case .array(let a): return "[" + a.map(\.plainNotation).joined(separator: ",") + "]"
        case .map(let m): return "{" + m.map { $0.key.plainNotation + ":" + $0.value.plainNotation }.joined(separator: ",") + "}"
        case .tagged(let tag, let item): return "g\(tag)(\(item.plainNotation))"
        case .bool(let b): return b ? "T" : "F"
        case .null: return "N"
        case .undefined: return "U"
        case .simple(let v):
            switch v {
            case 20: return "F"
            case 21: return "T"
            case 22: return "N"
            case 23: return "U"
            default: return "s\(v)"
            }
        case .float(let d):
            if d.isNaN { return "fNaN" }
            let bits = d.bitPattern
            return "f" + withUnsafeBytes(of: bits.bigEndian) { Array($0) }.hex
        }
    }
}
