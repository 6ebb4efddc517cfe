/// The device's SMP buffer configuration (OS group command 6), or what is assumed without it.
public struct MCUmgrParameters: Sendable, Hashable, CustomStringConvertible {
    /// Where the figures come from.
    public enum Source: Sendable, Hashable {
        /// Reported by the device.
        case device
        /// Assumed, because the device did not report them (the reason says why).
        case assumed(reason: String)
    }

    /// Size of each SMP buffer: the largest complete message (header included) the device receives.
    public var bufferSize: Int
    /// Number of SMP buffers; requests in flight should stay below it.
    public var bufferCount: Int
    /// Where the figures come from.
    public var source: Source

    /// Creates parameters.
    public init(bufferSize: Int, bufferCount: Int, source: Source = .device) {
        self.bufferSize = bufferSize
        self.bufferCount = bufferCount
        self.source = source
    }

    /// How many requests may be in flight without overrunning the device: `buf_count − 1`, at least 1.
    public var window: Int { max(1, bufferCount - 1) }

    public var description: String {
        let origin: String
        switch source {
        case .device: origin = "reported by the device"
        case .assumed(let reason): origin = "assumed: \(reason)"
        }
        return "buf_size=\(bufferSize) buf_count=\(bufferCount) (\(origin))"
    }
}
