import SMPKit

/// The `?NAME=VALUE&…` options of a selector: link options every matched device gets, plus the
/// selector's own (`scan` for a BLE scan).
struct SelectorQuery: Sendable, Hashable {
    /// The link options, as a connection string takes them.
    var options = ConnectionOptions()
    /// `scan=SECONDS`: how long a BLE scan lasts.
    var scanSeconds: Double?

    /// Splits `text` into its body and its query at the first `?` that is followed by options
    /// (`NAME=VALUE` with known names), so that a `?` inside a pattern (`serial=E66?`) stays in the body.
    static func split(_ text: Substring) -> (body: Substring, query: Substring) {
        let known = Set(ConnectionOptions.allNames + ["scan"])
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

    /// Parses a query for `transport` ("serial", "udp" or "ble"); `scan` only for BLE.
    init(parsing query: Substring, transport: String, selector: String) throws(TargetSelectionError) {
        var seen = Set<String>()
        for item in query.split(separator: "&", omittingEmptySubsequences: true) {
            guard let equals = item.firstIndex(of: "=") else { throw Self.usage(selector, "\"\(item)\": an option must be NAME=VALUE", hint: nil) }
            let name = item[..<equals].lowercased()
            let value = String(item[item.index(after: equals)...])
            guard seen.insert(name).inserted else { throw Self.usage(selector, "\"\(item)\": the option is given twice", hint: nil) }
            if name == "scan" && transport == "ble" {
                guard let seconds = Double(value), seconds > 0, seconds <= 3600 else {
                    throw Self.usage(selector, "\"\(item)\": expected seconds greater than 0 and at most 3600", hint: "e.g. ble:name=Zephyr-*?scan=10")
                }
                scanSeconds = seconds
                continue
            }
            do {
                try options.set(name, to: value, transport: transport)
            } catch {
                let names = ConnectionOptions.names(for: transport) + (transport == "ble" ? ["scan"] : [])
                throw Self.usage(selector, "\"\(item)\": \(error.problem)", hint: "\(transport) selectors take \(names.joined(separator: ", ")); \(error.hint)")
            }
        }
    }

    private static func usage(_ selector: String, _ problem: String, hint: String?) -> TargetSelectionError {
        TargetSelectionError(.usage, "invalid selector \"\(selector)\": \(problem)", hint: hint)
    }
}
