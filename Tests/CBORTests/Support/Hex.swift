extension Array where Element == UInt8 {
    /// Bytes from hex digits; spaces are ignored ("83 01 02 03" or "83010203"). Test data only:
    /// malformed hex stops the test run.
    init(hex: String) {
        let digits = hex.filter { !$0.isWhitespace }.map { character -> UInt8 in
            guard let value = character.hexDigitValue else { preconditionFailure("not hex: \(hex)") }
            return UInt8(value)
        }
        precondition(digits.count % 2 == 0, "odd number of hex digits: \(hex)")
        self = stride(from: 0, to: digits.count, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
    }

    /// Lower-case hex digits, no separators.
    var hex: String {
        let digits: [Character] = Array<Character>("0123456789abcdef")
        var text = ""
        text.reserveCapacity(count * 2)
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return text
    }
}
