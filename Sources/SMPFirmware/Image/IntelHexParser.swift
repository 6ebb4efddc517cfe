/// The line-by-line state of ``IntelHex`` decoding: records are checked one at a time, and the
/// data of consecutive records is gathered in runs; ``segments()`` then sorts the runs, refuses
/// overlaps and joins touching runs.
struct IntelHexParser {
    /// Data records that follow each other in the file and in the address space.
    private struct Run {
        var address: UInt64
        var offset: Int
        var count: Int
        var firstLine: Int
        var lastLine: Int
        var end: UInt64 { address + UInt64(count) }
    }

    /// One record's fields.
    private struct Record {
        var type: UInt8
        var address: UInt16
        var data: ArraySlice<UInt8>
    }

    let maximumDataSize: Int
    private(set) var startAddress: UInt32?
    private var startLine: Int?
    private var endOfFileLine: Int?
    private var base: UInt64 = 0
    private var data: [UInt8] = []
    private var runs: [Run] = []

    init(maximumDataSize: Int) {
        self.maximumDataSize = maximumDataSize
    }

    /// Checks every line of `text` and gathers its data.
    mutating func parse(_ text: [UInt8]) throws(IntelHexError) {
        var lineNumber = 0
        var index = 0
        while index < text.count {
            lineNumber += 1
            var end = index
            while end < text.count, text[end] != 0x0A { end += 1 }
            var lineEnd = end
            if lineEnd > index, text[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            let line = text[index..<lineEnd]
            index = end + 1
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            if let endOfFileLine { throw .dataAfterEndOfFile(line: lineNumber, endOfFileLine: endOfFileLine) }
            try apply(Self.record(line, line: lineNumber), line: lineNumber)
        }
        guard endOfFileLine != nil else { throw .missingEndOfFile(lines: lineNumber) }
    }

    /// The data as sorted, contiguous segments; overlapping runs are refused.
    func segments() throws(IntelHexError) -> [IntelHex.Segment] {
        let sorted = runs.sorted { ($0.address, $0.firstLine) < ($1.address, $1.firstLine) }
        var groups: [[Run]] = []
        for run in sorted {
            if let previous = groups.last?.last {
                if run.address < previous.end {
                    let (later, earlier) = run.firstLine > previous.firstLine ? (run, previous) : (previous, run)
                    // The first address given twice is where the run that starts later begins.
                    throw .overlap(line: later.firstLine, address: run.address, firstLine: earlier.firstLine)
                }
                if run.address == previous.end {
                    groups[groups.count - 1].append(run)
                    continue
                }
            }
            groups.append([run])
        }
        return groups.compactMap { group in
            guard let first = group.first else { return nil }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(group.reduce(0) { $0 + $1.count })
            for run in group { bytes += data[run.offset..<(run.offset + run.count)] }
            return IntelHex.Segment(address: UInt32(first.address), bytes: bytes)
        }
    }

    private mutating func apply(_ record: Record, line: Int) throws(IntelHexError) {
        switch record.type {
        case 0x00:
            try addData(record, line: line)
        case 0x01:
            guard record.data.isEmpty else { throw .malformedRecord(line: line, type: 0x01, problem: "(end of file) must have no data") }
            endOfFileLine = line
        case 0x02, 0x04:
            let value = try Self.addressRecordValue(record, count: 2, line: line)
            base = record.type == 0x02 ? value << 4 : value << 16
        case 0x03, 0x05:
            let value = try Self.addressRecordValue(record, count: 4, line: line)
            if let startLine { throw .duplicateStartAddress(line: line, firstLine: startLine) }
            // CS × 16 + IP is at most 0x10ffef; a linear start address is 32 bits.
            startAddress = UInt32(truncatingIfNeeded: record.type == 0x03 ? ((value >> 16) << 4) + (value & 0xFFFF) : value)
            startLine = line
        default:
            throw .unsupportedRecordType(line: line, type: record.type)
        }
    }

    private mutating func addData(_ record: Record, line: Int) throws(IntelHexError) {
        guard !record.data.isEmpty else { return }
        let address = base + UInt64(record.address)
        let count = record.data.count
        guard address + UInt64(count) <= 1 << 32 else { throw .addressBeyond4GiB(line: line, address: address, count: count) }
        guard data.count + count <= maximumDataSize else { throw .tooMuchData(line: line, limit: maximumDataSize) }
        if let last = runs.last, last.end == address {
            runs[runs.count - 1].count += count
            runs[runs.count - 1].lastLine = line
        } else {
            runs.append(Run(address: address, offset: data.count, count: count, firstLine: line, lastLine: line))
        }
        data += record.data
    }

    /// The value of a type 02–05 record: `count` data bytes, big-endian, and address field 0000.
    private static func addressRecordValue(_ record: Record, count: Int, line: Int) throws(IntelHexError) -> UInt64 {
        guard record.data.count == count else {
            throw .malformedRecord(line: line, type: record.type, problem: "must have \(count) data bytes, not \(record.data.count)")
        }
        guard record.address == 0 else {
            throw .malformedRecord(line: line, type: record.type, problem: "must have the address field 0000, not \(hexDigits(record.address))")
        }
        return record.data.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    /// Decodes and checks one non-blank line: `:`, digits, length, checksum.
    private static func record(_ line: ArraySlice<UInt8>, line number: Int) throws(IntelHexError) -> Record {
        guard line.first == IntelHex.colon else { throw .missingColon(line: number) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(line.count / 2)
        var high: UInt8?
        for (position, character) in line.dropFirst().enumerated() {
            guard let value = hexValue(character) else {
                throw .notHexDigit(line: number, column: position + 2, character: character)
            }
            if let first = high {
                bytes.append(first << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        guard line.count >= 11 else { throw .recordTooShort(line: number, characters: line.count) }
        let dataCount = Int(bytes[0])
        let expected = 11 + 2 * dataCount
        guard line.count == expected else {
            throw .lengthMismatch(line: number, dataBytes: dataCount, expectedCharacters: expected, characters: line.count)
        }
        let sum = bytes.dropLast().reduce(UInt8(0), &+)
        let expectedChecksum = 0 &- sum
        guard let checksum = bytes.last, checksum == expectedChecksum else {
            throw .checksumMismatch(line: number, found: bytes.last ?? 0, expected: expectedChecksum)
        }
        return Record(type: bytes[3], address: UInt16(bytes[1]) << 8 | UInt16(bytes[2]), data: bytes[4..<(4 + dataCount)])
    }

    private static func hexValue(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return character - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private static func hexDigits(_ value: UInt16) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
}
