/// Something that answers received frames: a ``VirtualDevice``, or a hand-written fake device
/// in tests (one that answers with malformed messages, or never answers).
public protocol SimulatedFrameHandler: Sendable {
    /// What to send back for one received frame (datagram).
    func deliveries(for frame: [UInt8]) async -> [SimulatedDelivery]

    /// Whether a serial request of `size` bytes fits the receive buffer the device has now,
    /// `framingOverhead` bytes (length and CRC of console framing) included.
    func accepts(messageOfSize size: Int, framingOverhead: Int) async -> Bool
}

extension SimulatedFrameHandler {
    /// Takes every request (the serial server's own limit applies).
    public func accepts(messageOfSize size: Int, framingOverhead: Int) async -> Bool { true }
}

extension VirtualDevice: SimulatedFrameHandler {
    /// Whether the request fits the buffer of the program that runs: the application's
    /// (``VirtualDeviceConfiguration/bufferSize``) or serial recovery's.
    public func accepts(messageOfSize size: Int, framingOverhead: Int) async -> Bool {
        let buffer = personality == .recovery ? configuration.recovery?.receiveCapacity ?? configuration.bufferSize : configuration.bufferSize
        return size + framingOverhead <= buffer
    }
}
