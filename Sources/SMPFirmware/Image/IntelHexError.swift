import SMP

/// Why an Intel HEX file (`zephyr.signed.hex`) was refused. Every case says what is wrong, where
/// (the 1-based line number) and, through ``description``, what to do.
public enum IntelHexError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A line does not start with `:` (blank lines are allowed anywhere).
    case missingColon(line: Int)
    /// A character that is not a hexadecimal digit; `column` is 1-based.
    case notHexDigit(line: Int, column: Int, character: UInt8)
    /// Fewer characters than the smallest record (`:LLAAAATTCC`, 11 characters).
    case recordTooShort(line: Int, characters: Int)
    /// The line's length does not match its byte count (`LL`).
    case lengthMismatch(line: Int, dataBytes: Int, expectedCharacters: Int, characters: Int)
    /// The record's checksum does not match its bytes.
    case checksumMismatch(line: Int, found: UInt8, expected: UInt8)
    /// A record type other than 00–05.
    case unsupportedRecordType(line: Int, type: UInt8)
    /// A record of type 01–05 with the wrong byte count or a non-zero address field.
    case malformedRecord(line: Int, type: UInt8, problem: String)
    /// A second start address record (type 03 or 05).
    case duplicateStartAddress(line: Int, firstLine: Int)
    /// A non-blank line after the end-of-file record.
    case dataAfterEndOfFile(line: Int, endOfFileLine: Int)
    /// The file ends without an end-of-file record (`:00000001FF`).
    case missingEndOfFile(lines: Int)
    /// A data record would reach past the 32-bit address space (4 GiB).
    case addressBeyond4GiB(line: Int, address: UInt64, count: Int)
    /// Two data records cover the same address.
    case overlap(line: Int, address: UInt64, firstLine: Int)
    /// The data adds up to more than the size limit.
    case tooMuchData(line: Int, limit: Int)
    /// The file holds no data record.
    case noData
    /// The data is not one contiguous range: an MCUboot image is.
    case severalRanges([IntelHexRange])
    /// A padded image (image and trailer ranges) spans more than the size limit.
    case paddedImageTooLarge(span: Int, limit: Int)
    /// The one range does not start with the MCUboot image magic.
    case notAnMCUbootImage(range: IntelHexRange, firstBytes: [UInt8])

    public var description: String {
        switch self {
        case .missingColon(let line):
            return "line \(line): a record must start with ':'; this is not an Intel HEX file or it is damaged"
        case let .notHexDigit(line, column, character):
            return "line \(line), column \(column): \(Self.shown(character)) is not a hexadecimal digit; the file is damaged"
        case let .recordTooShort(line, characters):
            return "line \(line): \(characters) characters, shorter than the smallest record (:LLAAAATTCC, 11 characters); the file is truncated or damaged"
        case let .lengthMismatch(line, dataBytes, expected, characters):
            return "line \(line): the record's byte count says \(dataBytes) data bytes, so \(expected) characters, but the line has \(characters); the file is truncated or damaged"
        case let .checksumMismatch(line, found, expected):
            return "line \(line): checksum \(Self.byte(found)), expected \(Self.byte(expected)); the file is damaged: build or download it again"
        case let .unsupportedRecordType(line, type):
            return "line \(line): record type \(Self.byte(type)) is not Intel HEX (only 00 data, 01 end of file, 02–05 addresses)"
        case let .malformedRecord(line, type, problem):
            return "line \(line): record type \(Self.byte(type)) \(problem); the file is damaged"
        case let .duplicateStartAddress(line, firstLine):
            return "line \(line): a second start address record (the first is on line \(firstLine)); the file is damaged"
        case let .dataAfterEndOfFile(line, endOfFileLine):
            return "line \(line): a record after the end-of-file record of line \(endOfFileLine); were two files joined? give one image's .hex"
        case .missingEndOfFile(let lines):
            return "no end-of-file record (:00000001FF) in \(lines) lines; the file is truncated: build or download it again"
        case let .addressBeyond4GiB(line, address, count):
            return "line \(line): \(count) bytes at \(MCUbootHex.literal(address, width: 8)) reach past the 4 GiB address space; the file is damaged"
        case let .overlap(line, address, firstLine):
            return "line \(line): address \(MCUbootHex.literal(address, width: 8)) is already given by the data from line \(firstLine) on; overlapping data is refused: give one image's .hex"
        case let .tooMuchData(line, limit):
            return "line \(line): the data exceeds \(limit) bytes, more than any image this library sends"
        case .noData:
            return "the file holds no data record; give the signed image (e.g. zephyr.signed.hex)"
        case .severalRanges(let ranges):
            let list = ranges.map(\.description).joined(separator: ", ")
            return "the file holds \(ranges.count) separate address ranges: \(list); an MCUboot image is one contiguous range. "
                + "Give the application's signed image (zephyr.signed.hex, not merged.hex: a merged file with the bootloader is for a flash programmer)"
        case let .paddedImageTooLarge(span, limit):
            return "the padded image spans \(span) bytes from its start to the end of its trailer, more than \(limit), more than any image this library sends"
        case let .notAnMCUbootImage(range, firstBytes):
            return "the data at \(range.description) does not start with the MCUboot image magic (3d b8 f3 96) but with "
                + "\(Hex.string(firstBytes, separator: " ")); \(UnsignedImageAdvice.text(extension: "hex"))"
        }
    }

    private static func byte(_ value: UInt8) -> String {
        MCUbootHex.literal(value, width: 2)
    }

    private static func shown(_ character: UInt8) -> String {
        character >= 0x20 && character < 0x7F ? "'\(Character(Unicode.Scalar(character)))'" : "byte \(byte(character))"
    }
}
