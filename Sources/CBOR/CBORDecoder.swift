/// A strict, bounded CBOR decoder.
///
/// Every declared length is checked against the bytes that remain before anything is allocated,
/// nesting depth is limited, and every error carries the byte offset where it was found.
/// Indefinite-length items are accepted (Zephyr answers with indefinite-length maps); their
/// string chunks are joined.
public struct CBORDecoder: Sendable {
    /// Deepest nesting of arrays, maps and tags accepted (64 nested arrays are fine, the 65th
    /// is refused with the default). The decoder recurses once per level, so this also bounds
    /// the stack it uses; keep it in the hundreds at most.
    public var maximumDepth: Int
    /// Whether bytes may follow the top-level item in ``decode(_:)``.
    public var allowTrailingBytes: Bool
    /// Whether a map with a repeated key is an error (by default duplicates are kept).
    public var rejectDuplicateKeys: Bool

    /// Creates a decoder.
    public init(maximumDepth: Int = 64, allowTrailingBytes: Bool = false, rejectDuplicateKeys: Bool = false) {
        self.maximumDepth = maximumDepth
        self.allowTrailingBytes = allowTrailingBytes
        self.rejectDuplicateKeys = rejectDuplicateKeys
    }

    /// Decodes one item that must fill `bytes` (unless ``allowTrailingBytes`` is set).
    public func decode(_ bytes: [UInt8]) throws(CBORDecodingError) -> CBOR {
        let (item, consumed) = try decodePrefix(bytes)
        if !allowTrailingBytes && consumed < bytes.count {
            throw CBORDecodingError(offset: consumed, reason: .trailingBytes(count: bytes.count - consumed))
        }
        return item
    }

    /// Decodes the item at the start of `bytes`, returning it and how many bytes it took.
    public func decodePrefix(_ bytes: [UInt8]) throws(CBORDecodingError) -> (item: CBOR, consumed: Int) {
        var parser = Parser(bytes: bytes, options: self)
        let item = try parser.item(depth: 0)
        return (item, parser.position)
    }
}

private struct Parser {
    let bytes: [UInt8]
    let options: CBORDecoder
    var position = 0

    init(bytes: [UInt8], options: CBORDecoder) {
        self.bytes = bytes
        self.options = options
    }

    private var remaining: Int { bytes.count - position }

    /// A head: major type, additional information, and the argument (nil for indefinite length).
    private struct Head {
        var major: UInt8
        var info: UInt8
        var argument: UInt64?
        var offset: Int
    }

    private func fail(_ reason: CBORDecodingError.Reason, at offset: Int? = nil) -> CBORDecodingError {
        CBORDecodingError(offset: offset ?? position, reason: reason)
    }

    private mutating func byte() throws(CBORDecodingError) -> UInt8 {
        guard position < bytes.count else { throw fail(.unexpectedEnd(needed: 1)) }
        defer { position += 1 }
        return bytes[position]
    }

    private mutating func bigEndian(_ count: Int) throws(CBORDecodingError) -> UInt64 {
        guard remaining >= count else { throw fail(.unexpectedEnd(needed: count - remaining)) }
        var value: UInt64 = 0
        for i in 0..<count { value = value << 8 | UInt64(bytes[position + i]) }
        position += count
        return value
    }

    private mutating func head() throws(CBORDecodingError) -> Head {
        let offset = position
        let initial = try byte()
        let major = initial >> 5
        let info = initial & 0x1F
        let argument: UInt64?
        switch info {
        case 0..<24: argument = UInt64(info)
        case 24: argument = try bigEndian(1)
        case 25: argument = try bigEndian(2)
        case 26: argument = try bigEndian(4)
        case 27: argument = try bigEndian(8)
        case 31: argument = nil
        default: throw fail(.reservedAdditionalInfo(info), at: offset)
        }
        return Head(major: major, info: info, argument: argument, offset: offset)
    }

    /// Checks that `count` units of `unitSize` bytes can still follow, before allocating for them.
    private func checkLength(_ count: UInt64, unitSize: UInt64, at offset: Int) throws(CBORDecodingError) -> Int {
        let (needed, overflow) = count.multipliedReportingOverflow(by: unitSize)
        guard !overflow, needed <= UInt64(remaining) else {
            throw fail(.lengthExceedsInput(declared: count, remaining: remaining), at: offset)
        }
        return Int(count)
    }

    mutating func item(depth: Int) throws(CBORDecodingError) -> CBOR {
        let head = try head()
        if head.major == 7 && head.info == 31 { throw fail(.unexpectedBreak, at: head.offset) }
        return try item(after: head, depth: depth)
    }

    private mutating func item(after head: Head, depth: Int) throws(CBORDecodingError) -> CBOR {
        switch head.major {
        case 0, 1, 6:
            guard let argument = head.argument else {
                throw fail(.indefiniteLengthNotAllowed(major: head.major), at: head.offset)
            }
            if head.major == 0 { return .unsigned(argument) }
            if head.major == 1 { return .negative(argument) }
            try checkDepth(depth, at: head.offset)
            return .tagged(argument, try item(depth: depth + 1))
        case 2:
            return .bytes(try byteString(head))
        case 3:
            return .text(try textString(head))
        case 4:
            return .array(try array(head, depth: depth))
        case 5:
            return .map(try map(head, depth: depth))
        default:
            return try simpleOrFloat(head)
        }
    }

    /// The most elements reserved ahead for a definite-length array or map. A declared count is
    /// only bounded by the bytes that remain, and every nesting level may declare that many, so
    /// reserving it in full would let a small input make the decoder reserve depth × input size
    /// elements; beyond this, the container grows as its elements actually arrive.
    private static let maximumReservation = 1024

    private func checkDepth(_ depth: Int, at offset: Int) throws(CBORDecodingError) {
        if depth >= options.maximumDepth { throw fail(.depthLimitExceeded(limit: options.maximumDepth), at: offset) }
    }

    private mutating func definiteBytes(_ count: UInt64, at offset: Int) throws(CBORDecodingError) -> ArraySlice<UInt8> {
        let length = try checkLength(count, unitSize: 1, at: offset)
        defer { position += length }
        return bytes[position..<position + length]
    }

    private mutating func byteString(_ head: Head) throws(CBORDecodingError) -> [UInt8] {
        if let count = head.argument { return Array(try definiteBytes(count, at: head.offset)) }
        var joined: [UInt8] = []
        while let chunk = try nextChunk(major: 2) { joined.append(contentsOf: chunk) }
        return joined
    }

    private mutating func textString(_ head: Head) throws(CBORDecodingError) -> String {
        if let count = head.argument { return try utf8(try definiteBytes(count, at: head.offset), at: head.offset) }
        var joined = ""
        while true {
            let chunkOffset = position
            guard let chunk = try nextChunk(major: 3) else { return joined }
            joined += try utf8(chunk, at: chunkOffset)
        }
    }

    /// The next chunk of an indefinite-length string, or nil at its break.
    private mutating func nextChunk(major: UInt8) throws(CBORDecodingError) -> ArraySlice<UInt8>? {
        let chunkHead = try head()
        if chunkHead.major == 7 && chunkHead.info == 31 { return nil }
        guard chunkHead.major == major, let count = chunkHead.argument else {
            throw fail(.invalidChunk, at: chunkHead.offset)
        }
        return try definiteBytes(count, at: chunkHead.offset)
    }

    private func utf8(_ slice: ArraySlice<UInt8>, at offset: Int) throws(CBORDecodingError) -> String {
        guard let text = String(validating: slice, as: UTF8.self) else { throw fail(.invalidUTF8, at: offset) }
        return text
    }

    /// Whether the next byte is a break code; consumes it if so.
    private mutating func atBreak() throws(CBORDecodingError) -> Bool {
        guard position < bytes.count else { throw fail(.unexpectedEnd(needed: 1)) }
        if bytes[position] == 0xFF {
            position += 1
            return true
        }
        return false
    }

    private mutating func array(_ head: Head, depth: Int) throws(CBORDecodingError) -> [CBOR] {
        try checkDepth(depth, at: head.offset)
        var elements: [CBOR] = []
        if let count = head.argument {
            let n = try checkLength(count, unitSize: 1, at: head.offset)
            elements.reserveCapacity(Swift.min(n, Self.maximumReservation))
            for _ in 0..<n { elements.append(try item(depth: depth + 1)) }
        } else {
            while !(try atBreak()) { elements.append(try item(depth: depth + 1)) }
        }
        return elements
    }

    private mutating func map(_ head: Head, depth: Int) throws(CBORDecodingError) -> CBORMap {
        try checkDepth(depth, at: head.offset)
        var entries: [CBORMap.Entry] = []
        var keys = Set<CBOR>()
        if let count = head.argument {
            let n = try checkLength(count, unitSize: 2, at: head.offset)
            entries.reserveCapacity(Swift.min(n, Self.maximumReservation))
            for _ in 0..<n { entries.append(try entry(depth: depth, keys: &keys)) }
        } else {
            while !(try atBreak()) { entries.append(try entry(depth: depth, keys: &keys)) }
        }
        return CBORMap(entries)
    }

    private mutating func entry(depth: Int, keys: inout Set<CBOR>) throws(CBORDecodingError) -> CBORMap.Entry {
        let keyOffset = position
        let key = try item(depth: depth + 1)
        if options.rejectDuplicateKeys && !keys.insert(key).inserted {
            throw fail(.duplicateKey(key.diagnosticDescription), at: keyOffset)
        }
        return CBORMap.Entry(key: key, value: try item(depth: depth + 1))
    }

    private func simpleOrFloat(_ head: Head) throws(CBORDecodingError) -> CBOR {
        guard let argument = head.argument else { throw fail(.unexpectedBreak, at: head.offset) }
        switch head.info {
        case 20: return .bool(false)
        case 21: return .bool(true)
        case 22: return .null
        case 23: return .undefined
        case 24:
            guard argument >= 32 else { throw fail(.invalidSimpleValue(UInt8(argument)), at: head.offset) }
            return .simple(UInt8(argument))
        case 25: return .float(HalfFloat.value(of: UInt16(argument)))
        case 26: return .float(Double(Float(bitPattern: UInt32(argument))))
        case 27: return .float(Double(bitPattern: argument))
        default: return .simple(head.info)
        }
    }
}
