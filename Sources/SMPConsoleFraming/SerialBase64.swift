/// Base64 (RFC 4648, standard alphabet, `=` padding) by table, for the serial framing's hot paths.
enum SerialBase64 {
    /// The 64 characters of the standard alphabet, by value.
    static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Class of an input byte in ``decodeTable`` for `=`.
    static let padding: UInt8 = 64
    /// Class of `\r`, which the decoder ignores inside an SMP line.
    static let carriageReturn: UInt8 = 65
    /// Class of `\n`, the end of a line.
    static let lineFeed: UInt8 = 66
    /// Class of 0x06, the first byte of the start marker (a line cut short by a new packet).
    static let startMarkerByte: UInt8 = 67
    /// Class of every other byte: not allowed in an SMP line.
    static let invalid: UInt8 = 255

    /// For each byte: its value (0–63) if it is an alphabet character, else its class.
    static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: invalid, count: 256)
        for (value, character) in alphabet.enumerated() { table[Int(character)] = UInt8(value) }
        table[Int(UInt8(ascii: "="))] = padding
        table[Int(UInt8(ascii: "\r"))] = carriageReturn
        table[Int(UInt8(ascii: "\n"))] = lineFeed
        table[0x06] = startMarkerByte
        return table
    }()

    /// The length of the encoding of `count` bytes.
    static func encodedCount(_ count: Int) -> Int { (count + 2) / 3 * 4 }

    /// Encodes the up to 3 bytes of `source[offset...]` as one 4-character quantum at `output`.
    @inline(__always)
    static func encodeQuantum(
        _ source: UnsafeBufferPointer<UInt8>, at offset: Int, into output: UnsafeMutableBufferPointer<UInt8>,
        at position: Int, alphabet: UnsafeBufferPointer<UInt8>
    ) {
        let available = source.count - offset
        let b0 = UInt32(source[offset])
        let b1 = available > 1 ? UInt32(source[offset + 1]) : 0
        let b2 = available > 2 ? UInt32(source[offset + 2]) : 0
        let bits = b0 << 16 | b1 << 8 | b2
        output[position] = alphabet[Int(bits >> 18)]
        output[position + 1] = alphabet[Int(bits >> 12 & 0x3F)]
        output[position + 2] = available > 1 ? alphabet[Int(bits >> 6 & 0x3F)] : UInt8(ascii: "=")
        output[position + 3] = available > 2 ? alphabet[Int(bits & 0x3F)] : UInt8(ascii: "=")
    }
}
