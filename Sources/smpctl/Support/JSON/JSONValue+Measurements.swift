import JSON

/// Measurements in `--json` documents, rounded the one way docs/json-output.md states: durations
/// in seconds or milliseconds with 3 decimals, rates as whole numbers per second.
extension JSONValue {
    /// A duration in seconds, 3 decimals (`…Seconds`, `seconds`).
    static func seconds(_ value: Double) -> JSONValue {
        .double(rounded(value, decimals: 3))
    }

    /// A duration in milliseconds, 3 decimals (`…Milliseconds`): loopback round trips are well under 1 ms.
    static func milliseconds(_ duration: Duration) -> JSONValue {
        .double(rounded(duration.milliseconds, decimals: 3))
    }

    /// A transfer rate in bytes (or items) per second, as a whole number.
    static func rate(_ value: Double) -> JSONValue {
        value.isFinite ? .int(Int64(value.rounded())) : .null
    }

    /// A rate of a counter per second, 3 decimals (`stat watch`'s `ratesPerSecond`).
    static func fractionalRate(_ value: Double) -> JSONValue {
        .double(rounded(value, decimals: 3))
    }

    private static func rounded(_ value: Double, decimals: Int) -> Double {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        return (value * scale).rounded() / scale
    }
}
