import ArgumentParser

/// The values a numeric option accepts, stated the same way wherever the option is refused:
/// "--timeout takes a number of seconds greater than 0 and at most 3600, not -5".
///
/// One entry per option name (docs/options.md): an option means the same in every command, so it
/// has one range. ``check(_:)`` refuses a value out of range; ``UsageDiagnosis`` uses
/// ``refusal(of:)`` for a value the argument parser could not read at all (`-5` for an unsigned
/// option, `abc` for a number).
struct NumericRange: Sendable {
    /// The option, `--timeout`.
    var option: String
    /// What the value counts, with its article: "a number of seconds", "a whole number of bytes".
    var quantity: String
    /// The smallest value accepted.
    var lowest: Double
    /// Whether `lowest` itself is refused ("greater than 0").
    var excludesLowest = false
    /// The largest value accepted, if there is a limit.
    var highest: Double?

    /// "greater than 0 and at most 3600", "from 1 to 64", "0 or more".
    var bounds: String {
        switch (excludesLowest, highest) {
        case (true, let highest?): "greater than \(Self.format(lowest)) and at most \(Self.format(highest))"
        case (false, let highest?): "from \(Self.format(lowest)) to \(Self.format(highest))"
        case (true, nil): "greater than \(Self.format(lowest))"
        case (false, nil): "\(Self.format(lowest)) or more"
        }
    }

    /// The refusal of `value`, given as the user wrote it.
    func refusal(of value: String) -> String {
        let separator = highest == nil && !excludesLowest ? ", " : " "
        return "\(option) takes \(quantity)\(separator)\(bounds), not \(value)"
    }

    /// Whether `value` is in the range.
    func contains(_ value: Double) -> Bool {
        (excludesLowest ? value > lowest : value >= lowest) && (highest.map { value <= $0 } ?? true)
    }

    /// Throws the refusal when `value` is out of the range.
    func check<Value: BinaryInteger>(_ value: Value?) throws {
        guard let value else { return }
        if !contains(Double(value)) { throw ValidationError(refusal(of: "\(value)")) }
    }

    /// Throws the refusal when `value` is out of the range.
    func check(_ value: Double?) throws {
        guard let value else { return }
        if !value.isFinite || !contains(value) { throw ValidationError(refusal(of: Self.format(value))) }
    }

    /// 3600 for 3600.0, 0.05 for 0.05.
    static func format(_ value: Double) -> String {
        value.isFinite && value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }
}

extension NumericRange {
    private static func seconds(_ option: String, above lowest: Double = 0, atMost highest: Double) -> NumericRange {
        NumericRange(option: option, quantity: "a number of seconds", lowest: lowest, excludesLowest: true, highest: highest)
    }

    private static func count(_ option: String, _ quantity: String, from lowest: Double, to highest: Double? = nil) -> NumericRange {
        NumericRange(option: option, quantity: quantity, lowest: lowest, highest: highest)
    }

    /// `--timeout`: each response's wait (a request is sent at most `--retries` + 1 times).
    static let timeout = seconds("--timeout", atMost: 3600)
    /// `--retries`.
    static let retries = count("--retries", "a whole number of retries", from: 0, to: 10)
    /// `--window` of uploads and file transfers.
    static let window = count("--window", "a whole number of requests in flight", from: 1, to: 64)
    /// `--align` of uploads.
    static let align = count("--align", "a whole number of bytes", from: 1, to: 4096)
    /// `fs hash --offset`.
    static let offset = count("--offset", "a whole number of bytes", from: 0)
    /// `fs hash --length`.
    static let length = count("--length", "a whole number of bytes", from: 1)
    /// `log show --limit`.
    static let limit = count("--limit", "a whole number of entries", from: 1)
    /// `stat show|all --count`.
    static let drawCount = count("--count", "a whole number of draws", from: 1)
    /// `stat show|all --watch`.
    static let watch = NumericRange(option: "--watch", quantity: "a number of seconds", lowest: 0.05, highest: 86_400)
    /// `settings read --max-size`.
    static let maxSize = count("--max-size", "a whole number of bytes", from: 0)
    /// `upgrade --swap-time`.
    static let swapTime = NumericRange(option: "--swap-time", quantity: "a number of seconds", lowest: 0, highest: 3600)
    /// `upgrade --reset-timeout`: the whole wait for the device after its reset.
    static let resetTimeout = seconds("--reset-timeout", atMost: 3600)
    /// `upgrade`, `suit upload --suit-poll-window`.
    static let suitPollWindow = seconds("--suit-poll-window", atMost: 600)
    /// `simulate --suit-chunk-timeout`.
    static let suitChunkTimeout = seconds("--suit-chunk-timeout", atMost: 3600)
    /// `ports --wait-timeout`: the whole wait for a port.
    static let waitTimeout = seconds("--wait-timeout", atMost: 86_400)
    /// `ports --probe-timeout`.
    static let probeTimeout = seconds("--probe-timeout", atMost: 60)
    /// `ports --poll-interval`.
    static let pollInterval = NumericRange(option: "--poll-interval", quantity: "a number of seconds", lowest: 0.01, highest: 60)
    /// `ble scan --duration`.
    static let duration = seconds("--duration", atMost: 3600)
    /// `image upload --image`, `image erase --slot`, `enum single --index`, `log show --index`,
    /// `suit cache-upload --partition`: numbers the device defines.
    static let image = count("--image", "a whole number", from: 0)
    static let slot = count("--slot", "a whole number", from: 0)
    static let index = count("--index", "a whole number", from: 0)
    static let partition = count("--partition", "a whole number", from: 0)
    /// `raw --command`.
    static let command = count("--command", "a command ID", from: 0, to: 255)
    /// `ble scan --min-rssi`.
    static let minRSSI = NumericRange(option: "--min-rssi", quantity: "a signal strength in dBm", lowest: -127, highest: 20)
    /// `--jobs`: devices served at once.
    static let jobs = count("--jobs", "a whole number of devices at once", from: 1, to: 256)

    /// Every range, by option name.
    static let all: [String: NumericRange] = Dictionary(
        [timeout, retries, window, align, offset, length, limit, drawCount, watch, maxSize, swapTime, resetTimeout,
         suitPollWindow, suitChunkTimeout, waitTimeout, probeTimeout, pollInterval, duration, image, slot, index, partition, command, minRSSI, jobs]
            .map { ($0.option, $0) } + simulator.map { ($0.option, $0) },
        uniquingKeysWith: { first, _ in first })
}
