/// How fast the simulated flash erases and writes, so that uploads take device time as on real
/// hardware (the first chunk erases the slot region, which can take seconds). Nil speeds are
/// instant.
public struct SimulatedFlashTiming: Sendable, Hashable {
    /// The erase unit: erases cover whole pages of this many bytes.
    public static let pageSize = 4096

    /// Bytes erased per second; nil erases instantly.
    public var eraseBytesPerSecond: Double?
    /// Bytes written per second; nil writes instantly.
    public var writeBytesPerSecond: Double?

    /// Creates a timing; speeds that are not positive count as instant.
    public init(eraseBytesPerSecond: Double? = nil, writeBytesPerSecond: Double? = nil) {
        self.eraseBytesPerSecond = eraseBytesPerSecond
        self.writeBytesPerSecond = writeBytesPerSecond
    }

    /// How long erasing the pages that cover `bytes` takes.
    public func eraseTime(bytes: Int) -> Duration {
        let pages = (max(0, bytes) + Self.pageSize - 1) / Self.pageSize
        return Self.time(pages * Self.pageSize, at: eraseBytesPerSecond)
    }

    /// How long writing `bytes` takes.
    public func writeTime(bytes: Int) -> Duration {
        Self.time(bytes, at: writeBytesPerSecond)
    }

    private static func time(_ bytes: Int, at speed: Double?) -> Duration {
        guard let speed, speed > 0, bytes > 0 else { return .zero }
        return .seconds(Double(bytes) / speed)
    }
}
