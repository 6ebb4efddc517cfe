/// One phase of a device's operation (`connect`, `inspect`, `upload`, `reset`…) and how long it took.
public struct PhaseRecord: Sendable, Hashable {
    /// The phase's short name.
    public var name: String
    /// How long it took, in seconds.
    public var seconds: Double

    /// Creates a phase record.
    public init(name: String, seconds: Double) {
        self.name = name
        self.seconds = seconds
    }
}
