/// Turns SMP messages into "SMP over console" lines (docs/protocol/serial.md §15.1).
///
/// A message becomes a serial packet — `total_len` (2 bytes, big-endian, = message length + 2),
/// the message, its ``CRC16XMODEM`` checksum (2 bytes, big-endian) — whose base64 text is cut
/// into lines: the first starts with 0x06 0x09, every further one with 0x04 0x14, and each ends
/// with `\n`. No line is longer than ``lineLength`` bytes (markers and `\n` included), and every
/// line but the last holds a multiple of 4 base64 characters, so that a receiver can decode each
/// line on its own, as Zephyr does.
public struct SerialFrameEncoder: Sendable {
    /// How a packet is cut into lines: `.client` = base64 of the whole packet cut into pieces of
    /// at most (lineLength − 3) characters rounded down to a multiple of 4 (124 for 127-byte
    /// lines), as MCUboot/smpclient do; `.zephyrDevice` = Zephyr's `mcumgr_serial_tx_pkt` split
    /// (93 raw bytes on the first line, 90 on the next, CRC never split), so the simulator answers
    /// exactly like a device.
    ///
    /// Both styles send the same base64 text; only the line breaks differ. Zephyr sends nothing
    /// for an empty message, so `.zephyrDevice` encodes an empty message as `.client` does.
    public enum Style: Sendable {
        /// Whole-packet base64 in pieces of ⌊(lineLength − 3) / 4⌋ × 4 characters.
        case client
        /// The line breaks of Zephyr's `mcumgr_serial_tx_pkt` with `MCUMGR_SERIAL_MAX_FRAME` = lineLength.
        case zephyrDevice
    }

    /// `MCUMGR_SERIAL_MAX_FRAME`: the longest line, including the 2 marker bytes and `\n`.
    public static let defaultLineLength = 127

    /// The smallest line length the encoder uses; smaller requests are raised to it.
    public static let minimumLineLength = 16

    /// The largest message a serial packet can carry: `total_len` is 16 bits and counts the CRC.
    public static let maximumEncodableMessageSize = 65_535 - 2

    /// The longest line this encoder writes (markers and `\n` included).
    public let lineLength: Int

    /// How packets are cut into lines.
    public let style: Style

    /// An encoder writing lines of at most `lineLength` bytes (at least ``minimumLineLength``).
    public init(lineLength: Int = defaultLineLength, style: Style = .client) {
        self.lineLength = max(lineLength, Self.minimumLineLength)
        self.style = style
    }

    /// The largest SMP message a device with a reassembly buffer of `bufferSize` bytes (`buf_size`
    /// of OS command 6, `MCUMGR_TRANSPORT_NETBUF_SIZE`) accepts over serial: the length field and
    /// the CRC share that buffer, so `bufferSize − 4` (docs/protocol/transports.md §15.7).
    public static func maximumMessageSize(bufferSize: Int) -> Int { max(0, bufferSize - 4) }

    /// The lines of one message, in order, each `marker + base64 + "\n"`.
    ///
    /// - Precondition: `message.count <= maximumEncodableMessageSize`.
    public func lines(for message: [UInt8]) -> [[UInt8]] {
        let bytes = encode(message)
        var lines: [[UInt8]] = []
        var start = 0
        for index in bytes.indices where bytes[index] == 0x0A {
            lines.append(Array(bytes[start...index]))
            start = index + 1
        }
        return lines
    }

    /// The lines of one message, concatenated: the bytes to write to the port.
    ///
    /// - Precondition: `message.count <= maximumEncodableMessageSize`.
    public func encode(_ message: [UInt8]) -> [UInt8] {
        precondition(
            message.count <= Self.maximumEncodableMessageSize,
            "an SMP message of \(message.count) bytes does not fit a serial packet")
        let crc = CRC16XMODEM.checksum(message)
        let total = message.count + 2
        var packet = [UInt8]()
        packet.reserveCapacity(message.count + 4)
        packet.append(UInt8(truncatingIfNeeded: total >> 8))
        packet.append(UInt8(truncatingIfNeeded: total))
        packet.append(contentsOf: message)
        packet.append(UInt8(truncatingIfNeeded: crc >> 8))
        packet.append(UInt8(truncatingIfNeeded: crc))

        let plan = quantaPerLine(messageCount: message.count)
        let size = SerialBase64.encodedCount(packet.count) + 3 * plan.count
        return [UInt8](unsafeUninitializedCapacity: size) { output, initialized in
            packet.withUnsafeBufferPointer { source in
                SerialBase64.alphabet.withUnsafeBufferPointer { alphabet in
                    var position = 0
                    var offset = 0
                    for (index, quanta) in plan.enumerated() {
                        output[position] = index == 0 ? 0x06 : 0x04
                        output[position + 1] = index == 0 ? 0x09 : 0x14
                        position += 2
                        for _ in 0..<quanta {
                            SerialBase64.encodeQuantum(
                                source, at: offset, into: output, at: position, alphabet: alphabet)
                            offset += 3
                            position += 4
                        }
                        output[position] = 0x0A
                        position += 1
                    }
                    initialized = position
                }
            }
        }
    }

    /// How many base64 quanta (4 characters, 3 packet bytes) each line carries; they add up to
    /// the whole packet.
    package func quantaPerLine(messageCount: Int) -> [Int] {
        switch style {
        case .zephyrDevice where messageCount > 0:
            return zephyrQuantaPerLine(messageCount: messageCount)
        case .client, .zephyrDevice:
            let total = (messageCount + 4 + 2) / 3
            let perLine = (lineLength - 3) / 4
            var plan: [Int] = []
            plan.reserveCapacity((total + perLine - 1) / perLine)
            var remaining = total
            repeat {
                let quanta = min(perLine, remaining)
                plan.append(quanta)
                remaining -= quanta
            } while remaining > 0
            return plan
        }
    }

    /// Zephyr's `mcumgr_serial_tx_pkt`, counting quanta instead of sending them. Each line sends
    /// whole triplets of message bytes, the first line starting with the triplet
    /// (len_hi, len_lo, msg[0]); the last line adds the final 0–2 message bytes together with the
    /// CRC, and if the CRC would not fit whole, a byte is held back for one more line.
    private func zephyrQuantaPerLine(messageCount length: Int) -> [Int] {
        var maxInput = ((lineLength - 3) >> 2) * 3
        var sourceOffset = 0
        var first = true
        var plan: [Int] = []
        while sourceOffset < length {
            var quanta = 0
            if first {
                quanta += 1
                sourceOffset += 1
                maxInput -= 3
                first = false
            }
            var toProcess = min(maxInput, length - sourceOffset)
            let reminder = maxInput - (length - sourceOffset)
            var last = false
            if reminder == 0 || reminder == 1 {
                toProcess -= 1
            } else if reminder >= 2 {
                last = true
            }
            let triplets = max(toProcess, 0) / 3
            quanta += triplets
            sourceOffset += 3 * triplets
            if last {
                switch length - sourceOffset {
                case 0: quanta += 1  // the CRC alone
                case 1: quanta += 1  // one byte and the CRC
                default: quanta += 2  // two bytes and the CRC's high byte, then its low byte
                }
                sourceOffset = length
            }
            plan.append(quanta)
        }
        return plan
    }
}
