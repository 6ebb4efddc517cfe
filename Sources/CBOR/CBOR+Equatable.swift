extension CBOR {
    /// Whether two items are the same data item: whether they have the same shortest-form
    /// encoding (with definite lengths).
    ///
    /// This differs from comparing the Swift payloads in three places, all of which follow
    /// from the wire format:
    /// - Text strings compare by their UTF-8 bytes. Swift's `String ==` treats canonically
    ///   equivalent strings as equal ("é" as one or as two scalars), but they are different
    ///   CBOR items, for example different map keys.
    /// - Floats compare by bit pattern, so `0.0 != -0.0`; but every NaN equals every NaN,
    ///   because the encoder writes all of them as the half-precision quiet NaN `f97e00`.
    /// - `.simple(20)` … `.simple(23)` equal `.bool(false)`, `.bool(true)`, `.null` and
    ///   `.undefined`, which are encoded the same way.
    ///
    /// With this, equality is reflexive for NaN too, so items (also NaN map keys) work in sets
    /// and as dictionary keys, and `decode(encode(x)) == x` holds for every encodable item.
    public static func == (lhs: CBOR, rhs: CBOR) -> Bool {
        switch (lhs, rhs) {
        case (.unsigned(let a), .unsigned(let b)): return a == b
        case (.negative(let a), .negative(let b)): return a == b
        case (.bytes(let a), .bytes(let b)): return a == b
        case (.text(let a), .text(let b)): return a.utf8.elementsEqual(b.utf8)
        case (.array(let a), .array(let b)): return a == b
        case (.map(let a), .map(let b)): return a == b
        case (.tagged(let tagA, let a), .tagged(let tagB, let b)): return tagA == tagB && a == b
        case (.float(let a), .float(let b)): return FloatKey(a) == FloatKey(b)
        default:
            guard let a = lhs.simpleValueCode, let b = rhs.simpleValueCode else { return false }
            return a == b
        }
    }

    /// Hashes the item consistently with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .unsigned(let n):
            hasher.combine(0 as UInt8)
            hasher.combine(n)
        case .negative(let n):
            hasher.combine(1 as UInt8)
            hasher.combine(n)
        case .bytes(let b):
            hasher.combine(2 as UInt8)
            hasher.combine(b)
        case .text(let s):
            hasher.combine(3 as UInt8)
            hasher.combine(s.utf8.count)
            for byte in s.utf8 { hasher.combine(byte) }
        case .array(let a):
            hasher.combine(4 as UInt8)
            hasher.combine(a)
        case .map(let m):
            hasher.combine(5 as UInt8)
            hasher.combine(m)
        case .tagged(let tag, let item):
            hasher.combine(6 as UInt8)
            hasher.combine(tag)
            hasher.combine(item)
        case .float(let d):
            hasher.combine(7 as UInt8)
            hasher.combine(FloatKey(d))
        case .bool, .null, .undefined, .simple:
            hasher.combine(8 as UInt8)
            hasher.combine(simpleValueCode)
        }
    }

    /// The simple value number of a major type 7 item that is not a float (false is 20, …).
    var simpleValueCode: UInt8? {
        switch self {
        case .bool(let b): return b ? 21 : 20
        case .null: return 22
        case .undefined: return 23
        case .simple(let v): return v
        default: return nil
        }
    }
}

/// A float's identity as a CBOR item: its bit pattern, with every NaN the same.
private struct FloatKey: Hashable {
    let bits: UInt64

    init(_ value: Double) {
        bits = value.isNaN ? Double.nan.bitPattern : value.bitPattern
    }
}
