/// One node of a YAML document, as smpctl's config file reads and writes it: a scalar, a
/// sequence or a mapping, with the line it starts on. ``YAMLReader`` builds it from libyaml's
/// events (aliases already replaced by what they name); ``YAMLWriter`` writes it with libyaml's
/// emitter.
///
/// What a plain scalar means (null, a merge key, a number) follows YAML 1.1's types, as the
/// config file was read before smpctl had its own binding (through Yams).
struct YAMLNode: Sendable {
    /// How a scalar is written.
    enum ScalarStyle: Sendable, Equatable {
        /// Plain (`5`, `lab`). Written: plain when the emitter can, quoted when it must.
        case plain
        /// Quoted or a block scalar: always text.
        case quoted
    }

    /// What the node holds.
    enum Content: Sendable {
        /// A scalar's text and style.
        case scalar(String, ScalarStyle)
        /// A sequence's items in order.
        case sequence([YAMLNode])
        /// A mapping's keys and values in the file's order.
        case mapping([(key: YAMLNode, value: YAMLNode)])
    }

    /// What the node holds.
    var content: Content
    /// The tag written in the file (`!!str`, expanded to `tag:yaml.org,2002:str`); nil when there is none.
    var tag: String?
    /// The line the node starts on, from 1; 0 for a node made to be written.
    var line: Int

    init(_ content: Content, tag: String? = nil, line: Int = 0) {
        self.content = content
        self.tag = tag
        self.line = line
    }

    /// A plain scalar to write (the emitter quotes it only when plain cannot be read back as it is).
    init(_ text: String) { self.init(.scalar(text, .plain)) }

    /// A mapping to write, its keys in the order given.
    init(_ pairs: [(YAMLNode, YAMLNode)]) { self.init(.mapping(pairs.map { (key: $0.0, value: $0.1) })) }

    /// A text value to write so that it reads back as text: single-quoted when, plain, it would
    /// read as a null, a boolean, a number, a date or a merge key (`'5'`, `'true'`).
    static func text(_ text: String) -> YAMLNode {
        YAMLNode(.scalar(text, plainIsText(text) ? .plain : .quoted))
    }

    /// The mapping's keys and values; nil when this is not a mapping.
    var mapping: [(key: YAMLNode, value: YAMLNode)]? {
        if case .mapping(let pairs) = content { return pairs }
        return nil
    }

    /// The sequence's items; nil when this is not a sequence.
    var sequence: [YAMLNode]? {
        if case .sequence(let items) = content { return items }
        return nil
    }

    /// The scalar's text; nil when this is not a scalar.
    var scalar: String? {
        if case .scalar(let text, _) = content { return text }
        return nil
    }

    /// Whether this is YAML's null: nothing after the key, `~`, `null` (plain), or tagged `!!null`.
    var isNull: Bool { isPlain(tagged: "null") { ["", "~", "null", "Null", "NULL"].contains($0) } }

    /// Whether this is the merge key `<<` (plain, or tagged `!!merge`).
    var isMergeKey: Bool { isPlain(tagged: "merge") { $0 == "<<" } }

    /// The whole number a plain scalar holds, in any of YAML 1.1's notations: `8`, `+8`, `-8`,
    /// `1_000`, `0x10`, `0o17` and `017` (octal), `0b101`, `1:30` (base 60, 90); nil for
    /// anything else, a quoted scalar, or a number that does not fit.
    var int: Int? {
        guard case .scalar(let text, .plain) = content else { return nil }
        let digits = text.filter { $0 != "_" }
        if digits == "0" { return 0 }
        let negative = digits.hasPrefix("-")
        let unsigned = digits.hasPrefix("-") || digits.hasPrefix("+") ? digits.dropFirst() : Substring(digits)
        for (prefix, radix) in [("0x", 16), ("0b", 2), ("0o", 8), ("0", 8)] where unsigned.hasPrefix(prefix) {
            return Int((negative ? "-" : "") + unsigned.dropFirst(prefix.count), radix: radix)
        }
        guard unsigned.contains(":") else { return Int(digits) }
        var value = 0
        for part in unsigned.split(separator: ":", omittingEmptySubsequences: false) {
            guard let digit = Int(part, radix: 10) else { return nil }
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 60)
            let (sum, carry) = shifted.addingReportingOverflow(digit)
            guard !overflow, !carry else { return nil }
            value = sum
        }
        return negative ? -value : value
    }

    /// Whether this is tagged `!!NAME`, or is an untagged plain scalar whose text passes `matches`.
    private func isPlain(tagged name: String, _ matches: (String) -> Bool) -> Bool {
        if let tag { return tag == "tag:yaml.org,2002:" + name }
        guard case .scalar(let text, .plain) = content else { return false }
        return matches(text)
    }

    /// Whether `text`, written plain, reads back as text: it does not match YAML 1.1's patterns
    /// for null, booleans, integers, floats, timestamps, the merge key or the value key (`=`)
    /// (``YAMLPlainScalarPatterns``).
    static func plainIsText(_ text: String) -> Bool { !YAMLPlainScalarPatterns.matchesAnotherType(text) }
}
