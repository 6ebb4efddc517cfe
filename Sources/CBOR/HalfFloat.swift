/// Conversions between `Double` and IEEE 754 half-precision bit patterns, done by hand so that
/// they behave the same on every platform (Swift's `Float16` is not available everywhere).
enum HalfFloat {
    /// The half-precision bits of `value` when it is exactly representable (NaN becomes the
    /// canonical quiet NaN `0x7e00`), else nil.
    static func bits(exactly value: Double) -> UInt16? {
        if value.isNaN { return 0x7E00 }
        let sign: UInt16 = value.sign == .minus ? 0x8000 : 0
        let magnitude = value.magnitude
        if magnitude.isInfinite { return sign | 0x7C00 }
        if magnitude == 0 { return sign }
        let exponent = Int(magnitude.exponent)
        if exponent > 15 { return nil }
        if exponent >= -14 {
            let fraction = (magnitude.significand - 1) * 1024
            guard Double(Int(fraction)) == fraction else { return nil }
            return sign | UInt16(exponent + 15) << 10 | UInt16(fraction)
        }
        let subnormal = magnitude * 0x1p24
        guard subnormal < 1024, Double(Int(subnormal)) == subnormal else { return nil }
        return sign | UInt16(subnormal)
    }

    /// The value of a half-precision bit pattern.
    static func value(of bits: UInt16) -> Double {
        let sign: FloatingPointSign = bits & 0x8000 != 0 ? .minus : .plus
        let exponent = Int((bits >> 10) & 0x1F)
        let mantissa = Double(bits & 0x3FF)
        switch exponent {
        case 0:
            return Double(sign: sign, exponent: -24, significand: mantissa)
        case 31:
            return mantissa == 0 ? Double(sign: sign, exponent: 0, significand: .infinity) : .nan
        default:
            return Double(sign: sign, exponent: exponent - 15, significand: 1 + mantissa / 1024)
        }
    }
}
