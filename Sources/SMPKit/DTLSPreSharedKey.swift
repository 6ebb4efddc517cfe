/// A DTLS pre-shared key: its bytes, which nothing prints (`description`, `debugDescription` and a
/// dump all show `<hidden>`).
public struct DTLSPreSharedKey: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The key.
    public let bytes: [UInt8]

    /// A key of 1 to ``DTLSOptions/maximumKeyLength`` bytes written as hex digits (either case;
    /// spaces, tabs and line breaks between them ignored, as in a key file); nil for anything else.
    public init?(hex text: some StringProtocol) {
        let digits = String(text.filter { !$0.isWhitespace })
        guard digits.count.isMultiple(of: 2), (2...2 * DTLSOptions.maximumKeyLength).contains(digits.count) else { return nil }
        var bytes: [UInt8] = []
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            guard digits[index..<next].allSatisfy({ $0.isASCII && $0.isHexDigit }), let byte = UInt8(digits[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        self.bytes = bytes
    }

    /// What a key must look like, for errors (which never quote the key).
    static let formProblem = "expected the key as hex digits, 1 to \(DTLSOptions.maximumKeyLength) bytes (2 to \(2 * DTLSOptions.maximumKeyLength) digits)"

    public var description: String { ConnectionSecrets.hidden }
    public var debugDescription: String { ConnectionSecrets.hidden }
    public var customMirror: Mirror { Mirror(self, children: []) }
}
