/// Damage on the simulated UART, drawn from a seeded generator so runs repeat: bursts of random
/// bytes (line noise) and packets whose CRC no longer matches.
struct SerialLineImpairment: Sendable {
    /// Fraction of lines that get a burst of noise.
    let noise: Double
    /// Fraction of packets sent with one bit flipped after the CRC was computed.
    let crcErrors: Double
    private var random: SeededGenerator

    init(noise: Double, crcErrors: Double, seed: UInt64) {
        self.noise = noise
        self.crcErrors = crcErrors
        random = SeededGenerator(seed: seed ^ 0x5E71_A1C0_FFEE_D00D)
    }

    /// Whether the next packet gets a CRC error.
    mutating func drawCRCError() -> Bool {
        crcErrors > 0 && random.chance(crcErrors)
    }

    /// The line, possibly with 1–8 random bytes inserted somewhere in it (before, inside or after).
    mutating func withNoise(_ line: [UInt8]) -> (line: [UInt8], noisy: Bool) {
        guard noise > 0, random.chance(noise) else { return (line, false) }
        let burst = (0..<(1 + Int(random.next() % 8))).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        var noisy = line
        noisy.insert(contentsOf: burst, at: Int(random.next() % UInt64(line.count + 1)))
        return (noisy, true)
    }

    /// The lines of a packet with one bit of its message flipped, its CRC left as computed for
    /// the original: a base64 character of the first line's second quantum (message bytes 1–3,
    /// which no packet of 8 bytes or more shares with its length or CRC) is swapped for the one
    /// whose 6-bit value differs in the lowest bit (`A`↔`B`, `a`↔`b`, `0`↔`1`, `+`↔`/`).
    mutating func withCRCError(_ lines: [[UInt8]]) -> [[UInt8]] {
        guard var first = lines.first else { return lines }
        let index = 2 + 4 + Int(random.next() % 4)  // after the marker and the first quantum
        guard index < first.count - 1, let flipped = Self.flipLowestBit(first[index]) else { return lines }
        first[index] = flipped
        return [first] + lines.dropFirst()
    }

    /// The base64 character whose value differs from `character`'s in bit 0.
    static func flipLowestBit(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return UInt8(ascii: "A") + ((character - UInt8(ascii: "A")) ^ 1)
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return UInt8(ascii: "a") + ((character - UInt8(ascii: "a")) ^ 1)
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt8(ascii: "0") + ((character - UInt8(ascii: "0")) ^ 1)
        case UInt8(ascii: "+"): return UInt8(ascii: "/")
        case UInt8(ascii: "/"): return UInt8(ascii: "+")
        default: return nil
        }
    }
}
