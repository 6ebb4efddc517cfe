import Foundation
import SMPConsoleFraming
import SMPTestSupport

/// Helpers shared by the framing tests.
enum Framing {
    /// The SMP echo request of docs/protocol/examples.md §21.2: v2 write, `{"d": "hello"}`, sequence 0x42.
    static let echoRequest: [UInt8] = [
        0x0A, 0x00, 0x00, 0x09, 0x00, 0x00, 0x42, 0x00, 0xA1, 0x61, 0x64, 0x65, 0x68, 0x65, 0x6C, 0x6C, 0x6F,
    ]

    /// Bytes from a hex string (spaces allowed).
    static func bytes(hex: String) -> [UInt8] {
        let digits = Array(hex.filter { !$0.isWhitespace })
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16) ?? 0 }
    }

    /// Lower-case hex of bytes.
    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// A random message of `count` bytes.
    static func message(_ count: Int, _ random: inout SplitMix64) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
    }

    /// Feeds `stream` in chunks whose sizes `nextSize` returns; all messages delivered.
    static func feed(
        _ stream: [UInt8], to decoder: inout SerialFrameDecoder, chunks nextSize: () -> Int
    ) -> [[UInt8]] {
        var messages: [[UInt8]] = []
        var offset = 0
        while offset < stream.count {
            let end = min(stream.count, offset + max(1, nextSize()))
            messages += decoder.feed(stream[offset..<end])
            offset = end
        }
        return messages
    }

    /// Decodes a whole stream at once with a fresh decoder.
    static func decode(_ stream: [UInt8], decoder: SerialFrameDecoder = SerialFrameDecoder())
        -> (messages: [[UInt8]], statistics: SerialFrameDecoder.Statistics)
    {
        var decoder = decoder
        let messages = decoder.feed(stream)
        return (messages, decoder.statistics)
    }

    /// Statistics with only the given counts set.
    static func statistics(
        packets: Int = 0, consoleBytes: Int = 0, lineBytes: Int = 0, crcErrors: Int = 0, lengthErrors: Int = 0,
        base64Errors: Int = 0, orphanContinuations: Int = 0, oversizeLines: Int = 0, abandonedPackets: Int = 0
    ) -> SerialFrameDecoder.Statistics {
        var statistics = SerialFrameDecoder.Statistics()
        statistics.packets = packets
        statistics.consoleBytes = consoleBytes
        statistics.lineBytes = lineBytes
        statistics.crcErrors = crcErrors
        statistics.lengthErrors = lengthErrors
        statistics.base64Errors = base64Errors
        statistics.orphanContinuations = orphanContinuations
        statistics.oversizeLines = oversizeLines
        statistics.abandonedPackets = abandonedPackets
        return statistics
    }

    /// The serial packet (`total_len ‖ message ‖ CRC`) of a message, built independently of the encoder.
    static func packet(_ message: [UInt8]) -> [UInt8] {
        let crc = CRC16XMODEM.checksum(message)
        let total = message.count + 2
        return [UInt8(total >> 8), UInt8(total & 0xFF)] + message + [UInt8(crc >> 8), UInt8(crc & 0xFF)]
    }

    /// A line's marker and base64 text (without `\n`), checked for shape.
    static func split(line: [UInt8]) -> (marker: [UInt8], text: String)? {
        guard line.count >= 3, line.last == 0x0A else { return nil }
        return (Array(line.prefix(2)), String(decoding: line.dropFirst(2).dropLast(), as: UTF8.self))
    }

    /// Foundation's base64 decoding of one line's text, as an independent reference.
    static func base64Decode(_ text: String) -> [UInt8]? {
        Data(base64Encoded: text).map { [UInt8]($0) }
    }
}

/// Console output that a device might print between (and around) SMP lines, free of SMP markers:
/// log lines, shell prompts, `\r`/`\n` variants, half lines, binary garbage with stray 0x06 and 0x04
/// bytes that are never followed by the marker's second byte.
struct ConsoleNoise {
    var random: SplitMix64

    private static let texts = [
        "[00:00:01.234,000] <inf> app: booting\n", "uart:~$ ", "uart:~$ mcumgr\r\n", "\r\n", "\n", "\r",
        "*** Booting Zephyr OS build v4.1.0 ***\r\n", "[00:00:12.000,000] <wrn> smp: queue full\n",
        "ABCD", "AAAA\n", "====", "half a line without end ", "\u{1B}[1;32muart:~$ \u{1B}[m", "06 09 in text\n",
    ]

    /// A gap of `pieces` pieces of noise, with no marker inside (nor across the seams).
    mutating func gap(pieces: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for _ in 0..<pieces { bytes += next() }
        return Self.withoutMarkers(bytes)
    }

    /// One piece of noise.
    mutating func next(maxBinary: Int = 40) -> [UInt8] {
        var bytes: [UInt8]
        switch random.below(4) {
        case 0, 1:
            bytes = Array(random.pick(Self.texts).utf8)
        case 2:
            bytes = (0..<random.below(maxBinary + 1)).map { _ in UInt8.random(in: 0...255, using: &random) }
            if random.oneIn(2) { bytes.append(random.pick([0x06, 0x04])) }
        default:
            bytes = [random.pick([0x06, 0x04, 0x0A, 0x0D, 0x09, 0x14, 0x00, 0xFF])]
        }
        return Self.withoutMarkers(bytes)
    }

    /// Breaks every 06 09 and 04 14 pair, so the noise holds no marker by itself.
    static func withoutMarkers(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        for byte in bytes {
            if let last = result.last, (last == 0x06 && byte == 0x09) || (last == 0x04 && byte == 0x14) {
                result.append(0x20)
            }
            result.append(byte)
        }
        return result
    }
}
