/// How many messages met each fault (see ``FaultInjection``).
public struct FaultStatistics: Sendable, Hashable, CustomStringConvertible {
    /// Responses produced by the device (before any fault).
    public var responses = 0
    /// Responses not sent.
    public var dropped = 0
    /// Responses sent twice.
    public var duplicated = 0
    /// Responses sent late.
    public var delayed = 0
    /// Responses held back behind the next one.
    public var reordered = 0
    /// Responses damaged.
    public var corrupted = 0
    /// Requests answered "busy" instead of being processed.
    public var busy = 0

    /// Creates empty statistics.
    public init() {}

    public var description: String {
        "responses=\(responses) dropped=\(dropped) duplicated=\(duplicated) delayed=\(delayed) "
            + "reordered=\(reordered) corrupted=\(corrupted) busy=\(busy)"
    }
}
