import JSON
import SMP

extension LogNamedID {
    /// `{key: [{"name", "id"}]}`.
    static func json(_ pairs: [LogNamedID], key: String) -> JSONValue {
        .object([(key, .array(pairs.map { .object([("name", .string($0.name)), ("id", .int($0.id))]) }))])
    }

    /// NAME and ID columns.
    static func table(_ pairs: [LogNamedID], header: String) -> String {
        var table = Table([header, "ID"], alignments: [.left, .right])
        for pair in pairs { table.add([pair.name, String(pair.id)]) }
        return pairs.isEmpty ? "none" : table.rendered
    }
}
