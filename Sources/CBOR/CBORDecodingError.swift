/// Why CBOR input was rejected, and at which byte.
public struct CBORDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong.
    public enum Reason: Sendable, Equatable {
        /// The input ended inside an item; `needed` more bytes were expected at least.
        case unexpectedEnd(needed: Int)
        /// Additional information 28–30 is reserved.
        case reservedAdditionalInfo(UInt8)
        /// Indefinite length (additional information 31) used with a major type that has none.
        case indefiniteLengthNotAllowed(major: UInt8)
        /// A declared length is larger than the bytes that remain.
        case lengthExceedsInput(declared: UInt64, remaining: Int)
        /// A chunk of an indefinite-length string is not a definite string of the same type.
        case invalidChunk
        /// A "break" (0xFF) where no indefinite-length item is open.
        case unexpectedBreak
        /// A text string is not valid UTF-8.
        case invalidUTF8
        /// A simple value below 32 written in the two-byte form (not well-formed).
        case invalidSimpleValue(UInt8)
        /// Items nest deeper than the decoder's limit.
        case depthLimitExceeded(limit: Int)
        /// Bytes follow the top-level item.
        case trailingBytes(count: Int)
        /// A map key occurs twice (only when duplicates are rejected).
        case duplicateKey(String)
    }

    /// Offset of the offending byte from the start of the input.
    public var offset: Int
    /// What was wrong.
    public var reason: Reason

    /// Creates an error.
    public init(offset: Int, reason: Reason) {
        self.offset = offset
        self.reason = reason
    }

    public var description: String {
        let what: String
        switch reason {
        case .unexpectedEnd(let needed):
            what = "input ends inside an item (at least \(needed) more byte\(needed == 1 ? "" : "s") expected)"
        case .reservedAdditionalInfo(let info):
            what = "reserved additional information value \(info)"
        case .indefiniteLengthNotAllowed(let major):
            what = "indefinite length is not allowed for major type \(major)"
        case .lengthExceedsInput(let declared, let remaining):
            what = "declared length \(declared) exceeds the \(remaining) byte\(remaining == 1 ? "" : "s") that remain"
        case .invalidChunk:
            what = "a chunk of an indefinite-length string is not a definite string of the same type"
        case .unexpectedBreak:
            what = "unexpected break code 0xFF"
        case .invalidUTF8:
            what = "text string is not valid UTF-8"
        case .invalidSimpleValue(let value):
            what = "simple value \(value) must not use the two-byte form"
        case .depthLimitExceeded(let limit):
            what = "items nest deeper than \(limit) levels"
        case .trailingBytes(let count):
            what = "\(count) unexpected byte\(count == 1 ? "" : "s") after the item"
        case .duplicateKey(let key):
            what = "duplicate map key \(key)"
        }
        return "invalid CBOR at byte \(offset): \(what)"
    }
}
