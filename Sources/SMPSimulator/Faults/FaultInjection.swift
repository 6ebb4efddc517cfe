/// What goes wrong between a virtual device and its clients, and how often.
///
/// Each fraction is a probability from 0 to 1, applied independently to every response (or, for
/// ``busy``, to every request). The choices come from a generator seeded with ``seed``, so the same
/// requests in the same order meet the same faults.
public struct FaultInjection: Sendable, Hashable {
    /// Responses that are never sent.
    public var drop: Double
    /// Responses that are sent twice.
    public var duplicate: Double
    /// Responses that are sent only after ``delayDuration``.
    public var delay: Double
    /// How long a delayed response waits.
    public var delayDuration: Duration
    /// Responses held back and sent right after the next response, so that the two swap places.
    /// A held-back response waits for the next one however long that takes.
    public var reorder: Double
    /// Responses damaged so that a client must reject them: the header's length is raised above
    /// what the datagram holds, the datagram is cut short, or the payload starts with a byte that
    /// is not valid CBOR. A damaged response never decodes to a different valid message.
    public var corrupt: Double
    /// Requests answered with `MGMT_ERR_EBUSY` (rc 10) instead of being processed.
    public var busy: Double
    /// The seed of the generator that picks which messages meet a fault.
    public var seed: UInt64

    /// Creates a configuration; every fraction is clamped to 0…1.
    public init(
        drop: Double = 0, duplicate: Double = 0, delay: Double = 0, delayDuration: Duration = .milliseconds(100),
        reorder: Double = 0, corrupt: Double = 0, busy: Double = 0, seed: UInt64 = 0x5EED
    ) {
        self.drop = Self.clamp(drop)
        self.duplicate = Self.clamp(duplicate)
        self.delay = Self.clamp(delay)
        self.delayDuration = max(.zero, delayDuration)
        self.reorder = Self.clamp(reorder)
        self.corrupt = Self.clamp(corrupt)
        self.busy = Self.clamp(busy)
        self.seed = seed
    }

    /// No faults: every request is processed and every response sent once, at once.
    public static let none = FaultInjection()

    /// Whether any fault can happen.
    public var isActive: Bool { [drop, duplicate, delay, reorder, corrupt, busy].contains { $0 > 0 } }

    private static func clamp(_ value: Double) -> Double {
        value.isNaN ? 0 : min(1, max(0, value))
    }
}
