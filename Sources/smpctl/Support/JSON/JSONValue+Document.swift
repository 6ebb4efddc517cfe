import JSON

extension JSONValue {
    /// The version of the JSON vocabulary (docs/schema/v1/smpctl.schema.json) every document names.
    static let schemaVersion: Int64 = 1

    /// This object as a document: with `"schemaVersion"` first.
    var document: JSONValue {
        guard case .object(let members) = self else { return self }
        return .object([("schemaVersion", .int(Self.schemaVersion))] + members)
    }

    /// One line of standard output: the ``document``, compact, and a newline.
    func documentLine() -> String {
        document.serialized() + "\n"
    }
}
