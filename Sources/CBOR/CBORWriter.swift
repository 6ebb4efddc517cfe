/// Writes CBOR in the shortest form: the smallest head for every length and integer, and the
/// narrowest float width that holds the value exactly.
///
/// Besides whole items, it can write indefinite-length containers and strings piece by piece,
/// as Zephyr's zcbor does, which the virtual device uses to answer like a real device.
public struct CBORWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []

    /// When true, ``write(_:)`` encodes every array and map with indefinite length (`0x9F`/`0xBF`
    /// … `0xFF`), as Zephyr devices do; otherwise definite lengths.
    public var indefiniteContainers: Bool

    /// Creates a writer.
    public init(indefiniteContainers: Bool = false) {
        self.indefiniteContainers = indefiniteContainers
    }

    /// Writes one complete item.
    ///
    /// - Precondition: the item holds no `.simple(24)` … `.simple(31)`, which have no encoding.
    public mutating func write(_ item: CBOR) {
        switch item {
        case .unsigned(let n): writeHead(major: 0, argument: n)
        case .negative(let n): writeHead(major: 1, argument: n)
        case .bytes(let b):
            writeHead(major: 2, argument: UInt64(b.count))
            bytes.append(contentsOf: b)
        case .text(let s):
            let utf8 = Array(s.utf8)
            writeHead(major: 3, argument: UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        case .array(let elements):
            writeContainerStart(major: 4, count: elements.count)
            for element in elements { write(element) }
            if indefiniteContainers { writeBreak() }
        case .map(let map):
            writeContainerStart(major: 5, count: map.count)
            for entry in map {
                write(entry.key)
                write(entry.value)
            }
            if indefiniteContainers { writeBreak() }
        case .tagged(let tag, let content):
            writeHead(major: 6, argument: tag)
            write(content)
        case .bool(let b): bytes.append(b ? 0xF5 : 0xF4)
        case .null: bytes.append(0xF6)
        case .undefined: bytes.append(0xF7)
        case .simple(let v):
            // 24–31 have no encoding: one byte would be a float or break head, two bytes are
            // not well-formed (RFC 8949 §3.3). 20–23 come out as false, true, null, undefined.
            precondition(!(24...31).contains(v), "simple(\(v)) cannot be encoded; simple values 24–31 do not exist")
            writeHead(major: 7, argument: UInt64(v))
        case .float(let d): writeFloat(d)
        }
    }

    /// Starts an indefinite-length array (`0x9F`); end it with ``writeBreak()``.
    public mutating func beginIndefiniteArray() { bytes.append(0x9F) }

    /// Starts an indefinite-length map (`0xBF`); end it with ``writeBreak()``.
    public mutating func beginIndefiniteMap() { bytes.append(0xBF) }

    /// Writes an indefinite-length byte string made of these chunks.
    public mutating func writeIndefiniteBytes(_ chunks: [[UInt8]]) {
        bytes.append(0x5F)
        for chunk in chunks { write(.bytes(chunk)) }
        writeBreak()
    }

    /// Writes an indefinite-length text string made of these chunks.
    public mutating func writeIndefiniteText(_ chunks: [String]) {
        bytes.append(0x7F)
        for chunk in chunks { write(.text(chunk)) }
        writeBreak()
    }

    /// Writes the "break" stop code (`0xFF`) that ends an indefinite-length item.
    public mutating func writeBreak() { bytes.append(0xFF) }

    /// Writes a head: major type (0–7) and argument in the shortest form.
    ///
    /// This is the raw building block: for major type 7 it writes simple values and no floats,
    /// and the arguments 24–31 there give bytes that are not well-formed.
    public mutating func writeHead(major: UInt8, argument: UInt64) {
        let type = major << 5
        switch argument {
        case 0..<24:
            bytes.append(type | UInt8(argument))
        case 24...0xFF:
            bytes.append(type | 24)
            bytes.append(UInt8(argument))
        case 0x100...0xFFFF:
            bytes.append(type | 25)
            appendBigEndian(argument, byteCount: 2)
        case 0x1_0000...0xFFFF_FFFF:
            bytes.append(type | 26)
            appendBigEndian(argument, byteCount: 4)
        default:
            bytes.append(type | 27)
            appendBigEndian(argument, byteCount: 8)
        }
    }

    private mutating func writeContainerStart(major: UInt8, count: Int) {
        if indefiniteContainers {
            bytes.append(major << 5 | 31)
        } else {
            writeHead(major: major, argument: UInt64(count))
        }
    }

    private mutating func writeFloat(_ value: Double) {
        if let half = HalfFloat.bits(exactly: value) {
            bytes.append(0xF9)
            appendBigEndian(UInt64(half), byteCount: 2)
        } else if Double(Float(value)) == value {
            bytes.append(0xFA)
            appendBigEndian(UInt64(Float(value).bitPattern), byteCount: 4)
        } else {
            bytes.append(0xFB)
            appendBigEndian(value.bitPattern, byteCount: 8)
        }
    }

    private mutating func appendBigEndian(_ value: UInt64, byteCount: Int) {
        for shift in stride(from: (byteCount - 1) * 8, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }
}

extension CBOR {
    /// The item encoded in the shortest form with definite lengths.
    public func encoded() -> [UInt8] {
        var writer = CBORWriter()
        writer.write(self)
        return writer.bytes
    }
}
