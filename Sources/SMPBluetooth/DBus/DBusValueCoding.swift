import CDBus

/// Writes ``DBusValue``s into and reads them out of libdbus messages through `DBusMessageIter`.
///
/// Everything libdbus would reject with an abort (invalid UTF-8, malformed object paths or
/// signatures) is checked first and thrown as ``DBusError`` instead.
enum DBusValueCoding {
    /// The deepest container nesting the D-Bus specification allows.
    static let maximumDepth = 64

    static func append(_ value: DBusValue, to iterator: inout DBusMessageIter) throws(DBusError) {
        switch value {
        case .byte(var byte): try appendBasic(CDBUS_TYPE_BYTE, &byte, to: &iterator)
        case .bool(let flag):
            var word: dbus_bool_t = flag ? 1 : 0
            try appendBasic(CDBUS_TYPE_BOOLEAN, &word, to: &iterator)
        case .int16(var number): try appendBasic(CDBUS_TYPE_INT16, &number, to: &iterator)
        case .uint16(var number): try appendBasic(CDBUS_TYPE_UINT16, &number, to: &iterator)
        case .int32(var number): try appendBasic(CDBUS_TYPE_INT32, &number, to: &iterator)
        case .uint32(var number): try appendBasic(CDBUS_TYPE_UINT32, &number, to: &iterator)
        case .int64(var number): try appendBasic(CDBUS_TYPE_INT64, &number, to: &iterator)
        case .uint64(var number): try appendBasic(CDBUS_TYPE_UINT64, &number, to: &iterator)
        case .double(var number): try appendBasic(CDBUS_TYPE_DOUBLE, &number, to: &iterator)
        case .fd(var descriptor): try appendBasic(CDBUS_TYPE_UNIX_FD, &descriptor, to: &iterator)
        case .string(let text):
            try checkString(text)
            try appendText(CDBUS_TYPE_STRING, text, to: &iterator)
        case .objectPath(let path):
            try checkPath(path)
            try appendText(CDBUS_TYPE_OBJECT_PATH, path, to: &iterator)
        case .signature(let signature):
            try checkSignature(signature, single: false)
            try appendText(CDBUS_TYPE_SIGNATURE, signature, to: &iterator)
        case .bytes(let bytes):
            try container(CDBUS_TYPE_ARRAY, "y", in: &iterator) { (sub: inout DBusMessageIter) throws(DBusError) in
                let appended = bytes.withUnsafeBufferPointer { buffer -> dbus_bool_t in
                    var base = buffer.baseAddress
                    return dbus_message_iter_append_fixed_array(&sub, CDBUS_TYPE_BYTE, &base, Int32(buffer.count))
                }
                guard appended != 0 else { throw outOfMemory }
            }
        case .array(let items, let element):
            try checkSignature(element, single: true)
            for item in items where item.signature != element {
                throw DBusError(name: DBusError.invalidArgs, message: "an array of \(element) holds a \(item.signature)")
            }
            try container(CDBUS_TYPE_ARRAY, element, in: &iterator) { (sub: inout DBusMessageIter) throws(DBusError) in
                for item in items { try append(item, to: &sub) }
            }
        case .dict(let entries, let key, let valueSignature):
            let element = "{" + key + valueSignature + "}"
            try checkSignature("a" + element, single: true)
            try container(CDBUS_TYPE_ARRAY, element, in: &iterator) { (sub: inout DBusMessageIter) throws(DBusError) in
                for entry in entries {
                    guard entry.key.signature == key, entry.value.signature == valueSignature else {
                        throw DBusError(
                            name: DBusError.invalidArgs,
                            message: "a dictionary a\(element) holds an entry {\(entry.key.signature)\(entry.value.signature)}")
                    }
                    try container(CDBUS_TYPE_DICT_ENTRY, nil, in: &sub) { (pair: inout DBusMessageIter) throws(DBusError) in
                        try append(entry.key, to: &pair)
                        try append(entry.value, to: &pair)
                    }
                }
            }
        case .variant(let inner):
            let innerSignature = inner.signature
            try checkSignature(innerSignature, single: true)
            try container(CDBUS_TYPE_VARIANT, innerSignature, in: &iterator) { (sub: inout DBusMessageIter) throws(DBusError) in
                try append(inner, to: &sub)
            }
        case .struct(let fields):
            guard !fields.isEmpty else { throw DBusError(name: DBusError.invalidArgs, message: "a D-Bus structure needs at least one field") }
            try container(CDBUS_TYPE_STRUCT, nil, in: &iterator) { (sub: inout DBusMessageIter) throws(DBusError) in
                for field in fields { try append(field, to: &sub) }
            }
        }
    }

    /// Reads the values from the iterator's position to the end of its container.
    static func readAll(_ iterator: inout DBusMessageIter, depth: Int) throws(DBusError) -> [DBusValue] {
        guard depth <= maximumDepth else { throw malformed("containers nested deeper than \(maximumDepth)") }
        var values: [DBusValue] = []
        while dbus_message_iter_get_arg_type(&iterator) != CDBUS_TYPE_INVALID {
            values.append(try read(&iterator, depth: depth))
            dbus_message_iter_next(&iterator)
        }
        return values
    }

    /// Reads the value at the iterator's position.
    static func read(_ iterator: inout DBusMessageIter, depth: Int) throws(DBusError) -> DBusValue {
        let type = dbus_message_iter_get_arg_type(&iterator)
        switch type {
        case CDBUS_TYPE_BYTE: return .byte(basic(&iterator, UInt8(0)))
        case CDBUS_TYPE_BOOLEAN: return .bool(basic(&iterator, dbus_bool_t(0)) != 0)
        case CDBUS_TYPE_INT16: return .int16(basic(&iterator, Int16(0)))
        case CDBUS_TYPE_UINT16: return .uint16(basic(&iterator, UInt16(0)))
        case CDBUS_TYPE_INT32: return .int32(basic(&iterator, Int32(0)))
        case CDBUS_TYPE_UINT32: return .uint32(basic(&iterator, UInt32(0)))
        case CDBUS_TYPE_INT64: return .int64(basic(&iterator, Int64(0)))
        case CDBUS_TYPE_UINT64: return .uint64(basic(&iterator, UInt64(0)))
        case CDBUS_TYPE_DOUBLE: return .double(basic(&iterator, Double(0)))
        case CDBUS_TYPE_UNIX_FD: return .fd(basic(&iterator, Int32(-1)))
        case CDBUS_TYPE_STRING: return .string(try text(&iterator))
        case CDBUS_TYPE_OBJECT_PATH: return .objectPath(try text(&iterator))
        case CDBUS_TYPE_SIGNATURE: return .signature(try text(&iterator))
        case CDBUS_TYPE_VARIANT:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &sub)
            return .variant(try read(&sub, depth: depth + 1))
        case CDBUS_TYPE_STRUCT:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &sub)
            return .struct(try readAll(&sub, depth: depth + 1))
        case CDBUS_TYPE_ARRAY:
            return try readArray(&iterator, depth: depth)
        default:
            throw malformed("unknown type code \(type)")
        }
    }

    private static func readArray(_ iterator: inout DBusMessageIter, depth: Int) throws(DBusError) -> DBusValue {
        let signature = try currentSignature(&iterator)
        let element = String(signature.dropFirst())
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(&iterator, &sub)
        switch dbus_message_iter_get_element_type(&iterator) {
        case CDBUS_TYPE_BYTE:
            var base: UnsafePointer<UInt8>?
            var count: Int32 = 0
            dbus_message_iter_get_fixed_array(&sub, &base, &count)
            guard count >= 0 else { throw malformed("a byte array of negative length") }
            guard let base, count > 0 else { return .bytes([]) }
            return .bytes(Array(UnsafeBufferPointer(start: base, count: Int(count))))
        case CDBUS_TYPE_DICT_ENTRY:
            // element is "{KV}": a one-character basic key, then the value's signature.
            guard element.count >= 4, element.first == "{", element.last == "}" else { throw malformed("dictionary signature \(signature)") }
            let inner = element.dropFirst().dropLast()
            let key = String(inner.prefix(1))
            let value = String(inner.dropFirst())
            var entries: [DBusDictEntry] = []
            while dbus_message_iter_get_arg_type(&sub) == CDBUS_TYPE_DICT_ENTRY {
                var pair = DBusMessageIter()
                dbus_message_iter_recurse(&sub, &pair)
                let fields = try readAll(&pair, depth: depth + 2)
                guard fields.count == 2 else { throw malformed("a dictionary entry with \(fields.count) fields") }
                entries.append(DBusDictEntry(key: fields[0], value: fields[1]))
                dbus_message_iter_next(&sub)
            }
            return .dict(entries, keySignature: key, valueSignature: value)
        default:
            return .array(try readAll(&sub, depth: depth + 1), elementSignature: element)
        }
    }

    // MARK: - Checks

    static func checkPath(_ path: String) throws(DBusError) {
        try validate(path, what: "object path") { dbus_validate_path($0, $1) }
    }

    static func checkString(_ text: String) throws(DBusError) {
        try validate(text, what: "string") { dbus_validate_utf8($0, $1) }
    }

    static func checkSignature(_ signature: String, single: Bool) throws(DBusError) {
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let valid = !signature.utf8.contains(0) && (single
            ? dbus_signature_validate_single(signature, &error) != 0
            : dbus_signature_validate(signature, &error) != 0)
        guard valid else { throw DBusError(name: DBusError.invalidArgs, message: "\"\(signature)\" is not a valid D-Bus type signature") }
    }

    private static func validate(
        _ text: String, what: String, _ check: (UnsafePointer<CChar>, UnsafeMutablePointer<CDBus.DBusError>) -> dbus_bool_t
    ) throws(DBusError) {
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let valid = !text.utf8.contains(0) && text.withCString { check($0, &error) } != 0
        guard valid else { throw DBusError(name: DBusError.invalidArgs, message: "\"\(text)\" is not a valid D-Bus \(what)") }
    }

    // MARK: - Helpers

    private static var outOfMemory: DBusError { DBusError(name: DBusError.noMemory, message: "libdbus ran out of memory") }

    private static func malformed(_ what: String) -> DBusError {
        DBusError(name: DBusError.invalidArgs, message: "malformed D-Bus message: \(what)")
    }

    private static func appendBasic<T: BitwiseCopyable>(_ type: Int32, _ value: inout T, to iterator: inout DBusMessageIter) throws(DBusError) {
        let appended = withUnsafePointer(to: &value) { dbus_message_iter_append_basic(&iterator, type, $0) }
        guard appended != 0 else { throw outOfMemory }
    }

    private static func appendText(_ type: Int32, _ text: String, to iterator: inout DBusMessageIter) throws(DBusError) {
        let appended = text.withCString { characters -> dbus_bool_t in
            var pointer: UnsafePointer<CChar>? = characters
            return dbus_message_iter_append_basic(&iterator, type, &pointer)
        }
        guard appended != 0 else { throw outOfMemory }
    }

    private static func container(
        _ type: Int32, _ signature: String?, in iterator: inout DBusMessageIter,
        _ body: (inout DBusMessageIter) throws(DBusError) -> Void
    ) throws(DBusError) {
        var sub = DBusMessageIter()
        guard dbus_message_iter_open_container(&iterator, type, signature, &sub) != 0 else { throw outOfMemory }
        do {
            try body(&sub)
        } catch {
            dbus_message_iter_abandon_container(&iterator, &sub)
            throw error
        }
        guard dbus_message_iter_close_container(&iterator, &sub) != 0 else { throw outOfMemory }
    }

    private static func basic<T: BitwiseCopyable>(_ iterator: inout DBusMessageIter, _ initial: T) -> T {
        var value = initial
        withUnsafeMutablePointer(to: &value) { dbus_message_iter_get_basic(&iterator, $0) }
        return value
    }

    private static func text(_ iterator: inout DBusMessageIter) throws(DBusError) -> String {
        var pointer: UnsafePointer<CChar>?
        dbus_message_iter_get_basic(&iterator, &pointer)
        guard let pointer else { throw malformed("a string without text") }
        return String(cString: pointer)
    }

    private static func currentSignature(_ iterator: inout DBusMessageIter) throws(DBusError) -> String {
        guard let raw = dbus_message_iter_get_signature(&iterator) else { throw outOfMemory }
        defer { dbus_free(raw) }
        return String(cString: raw)
    }
}
