import SMPTestSupport
import CBOR

/// Generates random nested CBOR items from a seed, covering every case of ``CBOR`` and the
/// boundaries of every encoding (head sizes, float widths, UTF-8 lengths).
struct RandomCBOR {
    /// What the items may contain.
    enum Profile {
        /// Everything the model can encode: duplicate and arbitrary map keys, any tag.
        case full
        /// What Python's cbor2 represents without loss: no tags it decodes into Python objects,
        /// map keys only integers, text and byte strings, and no two keys equal in Python.
        case cbor2
    }

    var rng: SplitMix64
    var profile: Profile
    /// Deepest nesting of arrays, maps and tags.
    var maximumDepth: Int

    init(seed: UInt64, profile: Profile = .full, maximumDepth: Int = 5) {
        rng = SplitMix64(seed: seed)
        self.profile = profile
        self.maximumDepth = maximumDepth
    }

    /// Tags that cbor2 leaves as `CBORTag` (it decodes 0–5, 25, 28–30, 35–37, 100, 256, 258,
    /// 260, 261, 1004 and 55799 into other objects), with heads of every size.
    static let cbor2SafeTags: [UInt64] = [6, 7, 10, 15, 21, 22, 23, 24, 33, 34, 42, 99, 255, 1000, 65_000, 70_000, 5_000_000_000]

    static let interestingUnsigned: [UInt64] = [
        0, 1, 10, 23, 24, 25, 100, 255, 256, 1000, 65_535, 65_536, 1_000_000,
        0xFFFF_FFFF, 0x1_0000_0000, 1_000_000_000_000, UInt64(Int64.max), UInt64(Int64.max) + 1, .max - 1, .max,
    ]

    mutating func item() -> CBOR { item(depth: 0) }

    mutating func item(depth: Int) -> CBOR {
        let containers = depth < maximumDepth
        switch rng.below(containers ? 14 : 10) {
        case 0: return .unsigned(integerArgument())
        case 1: return .negative(integerArgument())
        case 2: return .bytes(bytes())
        case 3, 4: return .text(text())
        case 5: return .bool(rng.oneIn(2))
        case 6: return rng.oneIn(2) ? .null : .undefined
        case 7: return .simple(simpleValue())
        case 8, 9: return .float(float())
        case 10, 11: return .array((0..<count()).map { _ in item(depth: depth + 1) })
        case 12: return .map(map(depth: depth))
        default: return .tagged(tag(), item(depth: depth + 1))
        }
    }

    mutating func integerArgument() -> UInt64 {
        switch rng.below(4) {
        case 0: return rng.pick(Self.interestingUnsigned)
        case 1: return UInt64(rng.below(24))
        case 2: return UInt64.random(in: 0...0xFFFF, using: &rng)
        default: return rng.next() >> UInt64(rng.below(64))
        }
    }

    private mutating func count() -> Int {
        rng.oneIn(20) ? 24 + rng.below(20) : rng.below(6)
    }

    private mutating func bytes() -> [UInt8] {
        let length = rng.oneIn(25) ? 256 + rng.below(64) : (rng.oneIn(8) ? 24 + rng.below(10) : rng.below(12))
        return (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
    }

    /// Text of scalars from every UTF-8 length, including combining marks (so canonically
    /// equivalent spellings occur), noncharacters and the highest scalar.
    mutating func text() -> String {
        let length = rng.oneIn(25) ? 24 + rng.below(300) : rng.below(10)
        var scalars = String.UnicodeScalarView()
        for _ in 0..<length {
            let value: UInt32
            switch rng.below(8) {
            case 0, 1, 2: value = UInt32.random(in: 0x20...0x7E, using: &rng)
            case 3: value = UInt32.random(in: 0...0x1F, using: &rng)
            case 4: value = rng.pick([0x65, 0x301, 0xE9, 0x308, 0x1E9B, 0x323, 0xFEFF, 0xFFFD, 0xFFFF, 0x10FFFF, 0x7F, 0x80])
            case 5: value = UInt32.random(in: 0x80...0x7FF, using: &rng)
            case 6: value = UInt32.random(in: 0x800...0xFFFF, using: &rng)
            default: value = UInt32.random(in: 0x10000...0x10FFFF, using: &rng)
            }
            scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")  // surrogates are no scalars
        }
        return String(scalars)
    }

    private mutating func simpleValue() -> UInt8 {
        rng.oneIn(2) ? UInt8(rng.below(20)) : UInt8(32 + rng.below(224))
    }

    /// Floats of every width: exact halves (normal and subnormal), exact singles, doubles,
    /// signed zeros, infinities and NaN.
    mutating func float() -> Double {
        switch rng.below(8) {
        case 0:
            return rng.pick([0.0, -0.0, .infinity, -.infinity, .nan, 1.0, -1.5, 65504.0, 5.960464477539063e-8,
                             6.103515625e-05, 6.097555160522461e-05, Double(Float.greatestFiniteMagnitude),
                             Double(Float.leastNonzeroMagnitude), .leastNonzeroMagnitude, .greatestFiniteMagnitude, 1.1])
        case 1, 2:
            // A random half-precision pattern (may be NaN or infinite).
            let bits = UInt16.random(in: 0...0xFFFF, using: &rng)
            return halfValue(bits)
        case 3, 4:
            return Double(Float(bitPattern: UInt32.random(in: 0...UInt32.max, using: &rng)))
        case 5:
            return Double(Int.random(in: -100_000...100_000, using: &rng)) / 8
        default:
            return Double(bitPattern: rng.next())
        }
    }

    private mutating func tag() -> UInt64 {
        switch profile {
        case .cbor2: return rng.pick(Self.cbor2SafeTags)
        case .full: return integerArgument()
        }
    }

    private mutating func map(depth: Int) -> CBORMap {
        var map = CBORMap()
        let n = count()
        switch profile {
        case .full:
            for _ in 0..<n {
                let key = rng.oneIn(6) && !map.isEmpty ? map[rng.below(map.count)].key : item(depth: depth + 1)
                map.append(key: key, value: item(depth: depth + 1))
            }
        case .cbor2:
            var keys = Set<CBOR>()
            for _ in 0..<n {
                let key: CBOR
                switch rng.below(4) {
                case 0: key = .unsigned(integerArgument())
                case 1: key = .negative(integerArgument())
                case 2: key = .bytes(bytes())
                default: key = .text(text())
                }
                guard keys.insert(key).inserted else { continue }
                map.append(key: key, value: item(depth: depth + 1))
            }
        }
        return map
    }
}

/// The value of a half-precision bit pattern, computed independently of the codec.
func halfValue(_ bits: UInt16) -> Double {
    let sign = bits & 0x8000 != 0 ? -1.0 : 1.0
    let exponent = Int(bits >> 10 & 0x1F)
    let fraction = Double(bits & 0x3FF)
    switch exponent {
    case 0: return sign * fraction * 0x1p-24
    case 31: return fraction == 0 ? sign * .infinity : .nan
    default: return sign * (1 + fraction / 1024) * Double(sign: .plus, exponent: exponent - 15, significand: 1)
    }
}

/// The half-precision pattern of a single-precision pattern when it holds the same value,
/// computed from the bit fields independently of the codec (nil for NaN too).
func halfBits(exactlyFloat32 bits: UInt32) -> UInt16? {
    let sign = UInt16(bits >> 16 & 0x8000)
    let exponent = Int(bits >> 23 & 0xFF)
    let mantissa = bits & 0x7F_FFFF
    if exponent == 0xFF { return mantissa == 0 ? sign | 0x7C00 : nil }
    if exponent == 0 { return mantissa == 0 ? sign : nil }  // single subnormals are below 2^-126
    let e = exponent - 127
    if e > 15 || e < -24 { return nil }
    if e >= -14 {
        guard mantissa & 0x1FFF == 0 else { return nil }
        return sign | UInt16(e + 15) << 10 | UInt16(mantissa >> 13)
    }
    let full = 0x80_0000 | mantissa
    let shift = UInt32(-(e + 1))  // 14…23
    guard full & ((1 << shift) - 1) == 0 else { return nil }
    return sign | UInt16(full >> shift)
}
