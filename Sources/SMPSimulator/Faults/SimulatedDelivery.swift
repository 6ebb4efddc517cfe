/// One datagram (or frame) a virtual device sends: its bytes and how long to wait before sending.
public struct SimulatedDelivery: Sendable, Hashable {
    /// The bytes to send: one SMP message, possibly damaged by fault injection.
    public var bytes: [UInt8]
    /// How long to wait before sending (zero: at once, in order).
    public var delay: Duration

    /// Creates a delivery.
    public init(bytes: [UInt8], delay: Duration = .zero) {
        self.bytes = bytes
        self.delay = delay
    }
}
