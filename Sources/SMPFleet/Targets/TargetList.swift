/// A targets file (`--targets FILE`): one target per line, `[LABEL] TARGET`.
///
/// ```
/// # bay   target
/// bay-01  serial:serial-number=E661A4D1
/// bay-02  udp:192.0.2.12
///         serial:vid=2fe3        # a selector: every match
/// lab                            # a profile name (a word without ":"), resolved through the config file
/// ```
/// `#` starts a comment; blank lines are ignored. TARGET is a connection string, a selector
/// (``TargetSelector``) or a profile name; LABEL (the first of two words) names the device.
public struct TargetList {
    /// One line naming a target.
    public struct Entry: Sendable, Hashable {
        /// Where the list came from (a file name, `standard input`).
        public var source: String
        /// The line number, from 1.
        public var line: Int
        /// The label, when the line has two words.
        public var label: String?
        /// The target as written: a connection string, a selector or a profile name.
        public var target: String

        /// Creates an entry.
        public init(source: String, line: Int, label: String?, target: String) {
            self.source = source
            self.line = line
            self.label = label
            self.target = target
        }

        /// Whether the target is a profile name (a word without `:`) for the caller to resolve.
        public var isProfileName: Bool { !target.contains(":") }

        /// `targets.txt:3`, for messages.
        public var place: String { "\(source):\(line)" }

        /// The selector the target is, when it is no profile name.
        ///
        /// - Throws: ``TargetSelectionError`` of kind `data` whose message starts with ``place``.
        public func selector() throws(TargetSelectionError) -> TargetSelector {
            do {
                return try TargetSelector(parsing: target)
            } catch {
                throw error.located(at: place)
            }
        }

        /// Resolves the entry's selector, its label naming the targets (`LABEL`, or `LABEL-1`…
        /// for several); errors start with ``place``.
        public func resolve() async throws(TargetSelectionError) -> [DeviceTarget] {
            let selector = try selector()
            do {
                return try await selector.resolve(label: label)
            } catch {
                throw error.located(at: place)
            }
        }
    }

    /// Parses a targets file's text: entries in line order, with line numbers, labels and TARGET
    /// text (profile names are returned as such: the CLI resolves profiles). Connection strings and
    /// selectors are checked here, so that a bad line fails before anything is sent.
    ///
    /// - Parameter source: the file's name in messages (`targets.txt`, `standard input`).
    /// - Throws: ``TargetSelectionError`` of kind `data` naming the source and line: three words on a
    ///   line, a bad connection string or selector, a label used twice, or no target at all.
    public static func parse(_ text: String, source: String) throws(TargetSelectionError) -> [Entry] {
        var entries: [Entry] = []
        var labels: [String: Int] = [:]
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let number = index + 1
            let content = rawLine.firstIndex(of: "#").map { rawLine[..<$0] } ?? rawLine
            let words = content.split(whereSeparator: \.isWhitespace).map(String.init)
            let place = "\(source):\(number)"
            switch words.count {
            case 0: continue
            case 1, 2: break
            default:
                throw TargetSelectionError(
                    .data, "\(place): \(words.count) words on one line; expected [LABEL] TARGET",
                    hint: "write one target per line, optionally after a label: bay-01 serial:serial-number=E661A4D1")
            }
            let label = words.count == 2 ? words[0] : nil
            if let label, label.contains(":") {
                throw TargetSelectionError(
                    .data, "\(place): the label \"\(label)\" contains \":\" like a connection string",
                    hint: "write one target per line; a label is a plain name such as bay-01")
            }
            if let label {
                if let first = labels[label] {
                    throw TargetSelectionError(.data, "\(place): the label \"\(label)\" is also used on line \(first)", hint: "give each device its own label")
                }
                labels[label] = number
            }
            let entry = Entry(source: source, line: number, label: label, target: words[words.count - 1])
            if !entry.isProfileName { _ = try entry.selector() }
            entries.append(entry)
        }
        guard !entries.isEmpty else {
            throw TargetSelectionError(
                .data, "\(source) names no targets", hint: "write one target per line: [LABEL] TARGET, e.g. bay-01 udp:192.0.2.12")
        }
        return entries
    }
}
