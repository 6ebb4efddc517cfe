import JSON
import SMPKit

extension SerialPortProbe {
    /// "answered", "silent", "unavailable" or "failed".
    var name: String {
        switch self {
        case .answered: return "answered"
        case .silent: return "silent"
        case .unavailable: return "unavailable"
        case .failed: return "failed"
        }
    }

    /// For the table: "SMP (3.2 ms)", "no answer", "not available", "error".
    var summary: String {
        switch self {
        case .answered(let roundTrip): return "SMP (\(roundTrip.millisecondsText))"
        case .silent: return "no answer"
        case .unavailable: return "not available"
        case .failed: return "error"
        }
    }

    /// Why it did not answer, when there is more to say.
    var detail: String? {
        switch self {
        case .answered, .silent: return nil
        case .unavailable(let message), .failed(let message): return message
        }
    }

    /// `{"result", "roundTripMs", "message"}`.
    var json: JSONValue {
        var roundTrip = JSONValue.null
        if case .answered(let duration) = self { roundTrip = .milliseconds(duration) }
        return .object([("result", .string(name)), ("roundTripMilliseconds", roundTrip), ("message", detail.map(JSONValue.string) ?? .null)])
    }
}
