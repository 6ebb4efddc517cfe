/// The `?NAME=VALUE&…` options of connection text, one parser for connection strings and selectors:
/// the link options the device (or every device a selector matches) gets, plus a selector's own
/// (`scan` for a BLE scan).
struct ConnectionQuery: Sendable, Hashable {
    /// An item of the query that is wrong; connection strings and selectors word it each their way.
    enum Mistake: Error {
        /// No `=` in the item.
        case notNameValue(item: Substring)
        /// A name the transport does not take, or a value out of its option's range: `part` is the
        /// name or the item, `hint` the accepted forms or values.
        case rejected(item: Substring, part: Substring, problem: String, hint: String)
        /// A name given before.
        case twice(item: Substring)
        /// A `scan` that is no number of seconds.
        case scan(item: Substring)
    }

    /// The link options.
    var options = ConnectionOptions()
    /// `scan=SECONDS`: how long a BLE scan lasts.
    var scanSeconds: Double?

    /// Splits `text` into its body and its query at the first `?` that is followed by options
    /// (`NAME=VALUE` with known names, and `also`), so that a `?` inside a pattern (`serial=E66?`) stays in the body.
    static func split(_ text: Substring, also: [String] = []) -> (body: Substring, query: Substring) {
        let known = Set(ConnectionOptions.allNames + ["scan"] + also)
        var searchStart = text.startIndex
        while let question = text[searchStart...].firstIndex(of: "?") {
            let rest = text[text.index(after: question)...]
            let items = rest.split(separator: "&", omittingEmptySubsequences: false)
            if !rest.isEmpty, items.allSatisfy({ item in
                item.firstIndex(of: "=").map { known.contains(item[..<$0].lowercased()) } ?? false
            }) {
                return (text[..<question], rest)
            }
            searchStart = text.index(after: question)
        }
        return (text, "")
    }

    /// The names `transport` takes, with `scan` when `takesScan`.
    static func names(for transport: Transport, takesScan: Bool) -> [String] {
        ConnectionOptions.names(for: transport) + (takesScan ? ["scan"] : [])
    }

    /// Parses the query (the text after `?`) for `transport`; `scan` only when `takesScan` (a BLE scan).
    /// The DTLS options must make sense together (``DTLSOptions/mistake``).
    init(parsing query: Substring, transport: Transport, takesScan: Bool) throws(Mistake) {
        var seen: [String: Substring] = [:]
        for item in query.split(separator: "&", omittingEmptySubsequences: true) {
            guard let equals = item.firstIndex(of: "=") else { throw .notNameValue(item: item) }
            let name = item[..<equals].lowercased()
            let value = String(item[item.index(after: equals)...])
            guard Self.names(for: transport, takesScan: takesScan).contains(name) else {
                throw .rejected(item: item, part: Substring(name), problem: ConnectionOptions.unknown(for: transport), hint: ConnectionStringError.examples)
            }
            guard seen.updateValue(item, forKey: name) == nil else { throw .twice(item: item) }
            if name == "scan" {
                guard let seconds = Double(value), seconds > 0, seconds <= 3600 else { throw .scan(item: item) }
                scanSeconds = seconds
                continue
            }
            do {
                try options.set(name, to: value, transport: transport)
            } catch {
                throw .rejected(item: item, part: item, problem: error.problem, hint: error.hint)
            }
        }
        if let mistake = options.dtls.mistake {
            let item = seen[mistake.option] ?? Substring(mistake.option)
            throw .rejected(item: item, part: item, problem: mistake.problem, hint: mistake.hint)
        }
    }
}
