/// What a virtual device has processed.
public struct VirtualDeviceStatistics: Sendable, Hashable {
    /// Frames (datagrams) received.
    public var frames = 0
    /// Frames dropped without an answer because they exceed the buffer size.
    public var oversizedFrames = 0
    /// Frames dropped without an answer because they arrived while the device was rebooting
    /// (within ``VirtualDeviceConfiguration/bootTime`` of a reset taking effect).
    public var framesWhileResetting = 0
    /// SMP requests read from frames (including those answered with an error).
    public var requests = 0
    /// Responses produced (before fault injection).
    public var responses = 0
    /// Responses that are SMP-level errors (`rc` other than 0).
    public var errorResponses = 0

    /// Creates empty statistics.
    public init() {}
}
