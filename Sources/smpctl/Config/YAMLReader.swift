import CYAML

/// Why YAML text could not be read: what libyaml (or the tree built from its events) found, and where.
struct YAMLSyntaxError: Error, Sendable, Equatable {
    /// Where the problem is, from 1.
    var line: Int
    /// The column, from 1; nil when only the line is known.
    var column: Int?
    /// What is wrong, in libyaml's words (`did not find expected node content`).
    var problem: String
}

/// Reads YAML text into a ``YAMLNode`` tree with libyaml's parser: one document at most, aliases
/// replaced by the nodes they name, each mapping's keys once.
enum YAMLReader {
    /// The deepest nesting of sequences and mappings read; deeper is an error, not a stack overflow.
    static let maximumDepth = 512

    /// The most nodes aliases may add to a document (the copies of what they name): aliases of
    /// aliases grow a tree exponentially ("billion laughs"), which reading the configuration
    /// would walk. A document without aliases is bounded by its text.
    static let maximumAliasNodes = 100_000

    /// The document in `text`; nil when there is none (an empty file, or only comments).
    ///
    /// - Throws: ``YAMLSyntaxError`` for text that is not YAML, a second document, an alias to no
    ///   anchor, a key given twice in one mapping, nesting deeper than ``maximumDepth``, or aliases
    ///   that add more than ``maximumAliasNodes`` nodes.
    static func document(in text: String) throws(YAMLSyntaxError) -> YAMLNode? {
        // libyaml expects a non-null input string.
        guard !text.isEmpty else { return nil }
        var bytes = Array(text.utf8)
        return try bytes.withUnsafeMutableBufferPointer { buffer throws(YAMLSyntaxError) in
            var events = try EventStream(buffer)
            defer { events.close() }
            return try events.document()
        }
    }

    /// libyaml's parser over text that outlives it, the anchors seen so far (with how many nodes
    /// each stands for), the nodes read (aliases expanded) and how many of them aliases added.
    private struct EventStream {
        private let parser: UnsafeMutablePointer<yaml_parser_t>
        private var anchors: [String: (node: YAMLNode, nodes: Int)] = [:]
        private var nodes = 0
        private var aliasNodes = 0

        init(_ buffer: UnsafeMutableBufferPointer<UInt8>) throws(YAMLSyntaxError) {
            parser = .allocate(capacity: 1)
            guard yaml_parser_initialize(parser) == 1 else {
                parser.deallocate()
                throw YAMLSyntaxError(line: 1, problem: "out of memory")
            }
            yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(parser, buffer.baseAddress, buffer.count)
        }

        /// Frees the parser.
        func close() {
            yaml_parser_delete(parser)
            parser.deallocate()
        }

        /// The stream's only document, or nil.
        mutating func document() throws(YAMLSyntaxError) -> YAMLNode? {
            var event = try next()
            guard event.type == YAML_STREAM_START_EVENT else { throw Self.unexpected(event) }
            event = try next()
            if event.type == YAML_STREAM_END_EVENT { return nil }
            guard event.type == YAML_DOCUMENT_START_EVENT else { throw Self.unexpected(event) }
            let root = try node(from: try next(), depth: 0)
            guard try next().type == YAML_DOCUMENT_END_EVENT else { throw YAMLSyntaxError(line: root.line, problem: "expected the end of the document") }
            event = try next()
            guard event.type == YAML_STREAM_END_EVENT else {
                throw YAMLSyntaxError(line: event.line, column: event.column, problem: "expected a single document in the stream, but found another document")
            }
            return root
        }

        /// The node that starts with `event` (a scalar, an alias, or the start of a sequence or mapping).
        private mutating func node(from event: Event, depth: Int) throws(YAMLSyntaxError) -> YAMLNode {
            if event.type == YAML_ALIAS_EVENT {
                guard let anchor = event.alias, let named = anchors[anchor] else {
                    throw YAMLSyntaxError(line: event.line, column: event.column, problem: "found undefined alias")
                }
                nodes += named.nodes
                aliasNodes += named.nodes
                guard aliasNodes <= YAMLReader.maximumAliasNodes else {
                    throw YAMLSyntaxError(
                        line: event.line, column: event.column, problem: "aliases add more than \(YAMLReader.maximumAliasNodes) nodes")
                }
                return named.node
            }
            let before = nodes
            nodes += 1
            let node: YAMLNode
            switch event.type {
            case YAML_SCALAR_EVENT:
                node = YAMLNode(.scalar(event.value, event.isPlain ? .plain : .quoted), tag: event.tag, line: event.line)
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                guard depth < YAMLReader.maximumDepth else {
                    throw YAMLSyntaxError(line: event.line, column: event.column, problem: "nested deeper than \(YAMLReader.maximumDepth) levels")
                }
                node = event.type == YAML_SEQUENCE_START_EVENT ? try sequence(from: event, depth: depth + 1) : try mapping(from: event, depth: depth + 1)
            default:
                throw Self.unexpected(event)
            }
            if let anchor = event.anchor { anchors[anchor] = (node, nodes - before) }
            return node
        }

        private mutating func sequence(from start: Event, depth: Int) throws(YAMLSyntaxError) -> YAMLNode {
            var items: [YAMLNode] = []
            while true {
                let event = try next()
                if event.type == YAML_SEQUENCE_END_EVENT { break }
                items.append(try node(from: event, depth: depth))
            }
            return YAMLNode(.sequence(items), tag: start.tag, line: start.line)
        }

        private mutating func mapping(from start: Event, depth: Int) throws(YAMLSyntaxError) -> YAMLNode {
            var pairs: [(key: YAMLNode, value: YAMLNode)] = []
            var firstLines: [String: Int] = [:]
            var duplicates: [String] = []
            while true {
                let event = try next()
                if event.type == YAML_MAPPING_END_EVENT { break }
                let key = try node(from: event, depth: depth)
                let value = try node(from: try next(), depth: depth)
                if let text = key.scalar {
                    if firstLines[text] == nil { firstLines[text] = key.line } else if !duplicates.contains(text) { duplicates.append(text) }
                }
                pairs.append((key, value))
            }
            if let first = duplicates.min() {
                throw YAMLSyntaxError(line: firstLines[first] ?? start.line, problem: "a key is given twice: \(duplicates.sorted().joined(separator: ", "))")
            }
            return YAMLNode(.mapping(pairs), tag: start.tag, line: start.line)
        }

        /// The next event, copied out of libyaml's.
        private func next() throws(YAMLSyntaxError) -> Event {
            var event = yaml_event_t()
            guard yaml_parser_parse(parser, &event) == 1 else {
                let mark = parser.pointee.problem_mark
                let problem = parser.pointee.problem.map { String(cString: $0) } ?? "not valid YAML"
                // A reader error (bad UTF-8) has an offset, not a line.
                let located = parser.pointee.error != YAML_READER_ERROR
                throw YAMLSyntaxError(line: located ? Int(mark.line) + 1 : 1, column: located ? Int(mark.column) + 1 : nil, problem: problem)
            }
            defer { yaml_event_delete(&event) }
            return Event(event)
        }

        private static func unexpected(_ event: Event) -> YAMLSyntaxError {
            YAMLSyntaxError(line: event.line, column: event.column, problem: "unexpected event \(event.type.rawValue)")
        }
    }

    /// What the tree needs of one libyaml event.
    private struct Event {
        var type: yaml_event_type_t
        var line: Int
        var column: Int
        var anchor: String?
        var alias: String?
        var tag: String?
        var value = ""
        var isPlain = false

        init(_ event: yaml_event_t) {
            type = event.type
            line = Int(event.start_mark.line) + 1
            column = Int(event.start_mark.column) + 1
            switch event.type {
            case YAML_ALIAS_EVENT:
                alias = Self.text(event.data.alias.anchor)
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                anchor = Self.text(scalar.anchor)
                tag = Self.text(scalar.tag)
                value = scalar.value.map { String(decoding: UnsafeBufferPointer(start: $0, count: scalar.length), as: UTF8.self) } ?? ""
                isPlain = scalar.style == YAML_PLAIN_SCALAR_STYLE
            case YAML_SEQUENCE_START_EVENT:
                anchor = Self.text(event.data.sequence_start.anchor)
                tag = Self.text(event.data.sequence_start.tag)
            case YAML_MAPPING_START_EVENT:
                anchor = Self.text(event.data.mapping_start.anchor)
                tag = Self.text(event.data.mapping_start.tag)
            default:
                break
            }
        }

        private static func text(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
            pointer.map { String(cString: $0) }
        }
    }
}
