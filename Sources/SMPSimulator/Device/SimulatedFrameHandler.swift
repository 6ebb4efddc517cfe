/// Something that answers received frames: a ``VirtualDevice``, or a hand-written fake device
/// in tests (one that answers with malformed messages, or never answers).
public protocol SimulatedFrameHandler: Sendable {
    /// What to send back for one received frame (datagram).
    func deliveries(for frame: [UInt8]) async -> [SimulatedDelivery]
}

extension VirtualDevice: SimulatedFrameHandler {}
