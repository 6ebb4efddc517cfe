import FoundationEssentials
import JSON
import SMP

extension StatisticsGroupData {
    /// `{"name", "fields": {name: value}}`, plus `deltas` and `ratesPerSecond` against an earlier reading.
    func json(previous: StatisticsGroupData? = nil, seconds: Double? = nil) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("name", .string(name)), ("fields", .object(fields.map { ($0.name, .uint($0.value)) })),
        ]
        if let previous, let seconds {
            let deltas = fields.compactMap { field in
                previous.value(of: field.name).map { (field.name, Self.delta(from: $0, to: field.value)) }
            }
            members.append(("deltas", .object(deltas.map { ($0.0, .int($0.1)) })))
            members.append(("ratesPerSecond", .object(deltas.map { ($0.0, seconds > 0 ? .fractionalRate(Double($0.1) / seconds) : .null) })))
        }
        return .object(members)
    }

    /// The change of a counter (negative when it went back, e.g. after a reset), saturated to 64 bits.
    static func delta(from old: UInt64, to new: UInt64) -> Int64 {
        new >= old ? Int64(clamping: new - old) : -Int64(clamping: old - new)
    }

    /// "2.5": a change per second with one decimal.
    static func rate(_ delta: Int64, _ seconds: Double) -> String {
        seconds > 0 ? String(printf: "%.1f", Double(delta) / seconds) : "-"
    }
}
