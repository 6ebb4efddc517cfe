import CYAML

/// Why libyaml's emitter refused a tree.
struct YAMLEmitterError: Error, Sendable {
    /// What libyaml said.
    var problem: String
}

/// Writes a ``YAMLNode`` tree as YAML text with libyaml's emitter: block style, two-space
/// indents, lines up to 80 columns, characters outside ASCII escaped, no `---` or `...`.
enum YAMLWriter {
    /// The text of a document holding `root`.
    ///
    /// - Throws: ``YAMLEmitterError`` when libyaml refuses an event (it should not for a tree of
    ///   scalars, sequences and mappings).
    static func text(of root: YAMLNode) throws(YAMLEmitterError) -> String {
        let emitter = UnsafeMutablePointer<yaml_emitter_t>.allocate(capacity: 1)
        defer { emitter.deallocate() }
        guard yaml_emitter_initialize(emitter) == 1 else { throw YAMLEmitterError(problem: "out of memory") }
        defer { yaml_emitter_delete(emitter) }
        let output = Output()
        yaml_emitter_set_output(
            emitter,
            { context, buffer, size in
                guard let context, let buffer else { return 0 }
                Unmanaged<Output>.fromOpaque(context).takeUnretainedValue().bytes.append(contentsOf: UnsafeBufferPointer(start: buffer, count: size))
                return 1
            }, Unmanaged.passUnretained(output).toOpaque())
        yaml_emitter_set_unicode(emitter, 0)
        yaml_emitter_set_width(emitter, 80)
        yaml_emitter_set_indent(emitter, 2)
        yaml_emitter_set_break(emitter, YAML_LN_BREAK)
        try withExtendedLifetime(output) { () throws(YAMLEmitterError) in
            try emit(emitter) { yaml_stream_start_event_initialize(&$0, YAML_UTF8_ENCODING) }
            try emit(emitter) { yaml_document_start_event_initialize(&$0, nil, nil, nil, 1) }
            try write(root, to: emitter)
            try emit(emitter) { yaml_document_end_event_initialize(&$0, 1) }
            try emit(emitter) { yaml_stream_end_event_initialize(&$0) }
            guard yaml_emitter_flush(emitter) == 1 else { throw problem(of: emitter) }
        }
        return String(decoding: output.bytes, as: UTF8.self)
    }

    /// Where the emitter's output collects.
    private final class Output {
        var bytes: [UInt8] = []
    }

    private static func write(_ node: YAMLNode, to emitter: UnsafeMutablePointer<yaml_emitter_t>) throws(YAMLEmitterError) {
        switch node.content {
        case let .scalar(text, style):
            // NUL-terminated, so that even empty text has an address; libyaml copies `length` bytes.
            var value = Array(text.utf8) + [0]
            let scalarStyle = style == .plain ? YAML_ANY_SCALAR_STYLE : YAML_SINGLE_QUOTED_SCALAR_STYLE
            try emit(emitter) { event in
                value.withUnsafeMutableBufferPointer { value in
                    yaml_scalar_event_initialize(&event, nil, nil, value.baseAddress, Int32(value.count - 1), 1, 1, scalarStyle)
                }
            }
        case .sequence(let items):
            try emit(emitter) { yaml_sequence_start_event_initialize(&$0, nil, nil, 1, YAML_ANY_SEQUENCE_STYLE) }
            for item in items { try write(item, to: emitter) }
            try emit(emitter) { yaml_sequence_end_event_initialize(&$0) }
        case .mapping(let pairs):
            try emit(emitter) { yaml_mapping_start_event_initialize(&$0, nil, nil, 1, YAML_ANY_MAPPING_STYLE) }
            for (key, value) in pairs {
                try write(key, to: emitter)
                try write(value, to: emitter)
            }
            try emit(emitter) { yaml_mapping_end_event_initialize(&$0) }
        }
    }

    /// Makes an event with `initialize` and hands it to the emitter (which frees it).
    private static func emit(
        _ emitter: UnsafeMutablePointer<yaml_emitter_t>, _ initialize: (inout yaml_event_t) -> Int32
    ) throws(YAMLEmitterError) {
        var event = yaml_event_t()
        guard initialize(&event) == 1 else { throw YAMLEmitterError(problem: "out of memory") }
        guard yaml_emitter_emit(emitter, &event) == 1 else { throw problem(of: emitter) }
    }

    private static func problem(of emitter: UnsafeMutablePointer<yaml_emitter_t>) -> YAMLEmitterError {
        YAMLEmitterError(problem: emitter.pointee.problem.map { String(cString: $0) } ?? "cannot write YAML")
    }
}
