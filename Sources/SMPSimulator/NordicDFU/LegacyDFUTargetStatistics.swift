import NordicDFU

/// What a ``LegacyDFUTarget`` received and answered.
public struct LegacyDFUTargetStatistics: Sendable, Hashable, CustomStringConvertible {
    /// Control Point requests received, by op code.
    public var requests: [LegacyDFUOpCode: Int] = [:]
    /// Control Point writes that were not requests.
    public var malformedRequests = 0
    /// Firmware packets that arrived (lost ones not counted).
    public var dataPackets = 0
    /// Firmware bytes stored.
    public var dataBytesReceived = 0
    /// Init packet bytes that arrived.
    public var initPacketBytesReceived = 0
    /// Packet writes ignored (no op announced what they are).
    public var ignoredPackets = 0
    /// Responses sent.
    public var responses = 0
    /// Refusals sent (responses with a status other than success), by op code.
    public var refusals: [LegacyDFUOpCode: Int] = [:]
    /// Packet receipt notifications sent.
    public var notifications = 0
    /// Init packets refused by the checks.
    public var refusedInitPackets = 0
    /// Packets lost by fault injection.
    public var lostPackets = 0
    /// Packets dropped because the receipt notification interval exceeded the bootloader's limit.
    public var overflows = 0
    /// Resets (Reset, Activate and reset).
    public var resets = 0
    /// Images installed.
    public var installs = 0

    /// No events yet.
    public init() {}

    /// `requests=7 packets=256 bytes=5120 notifications=25 responses=4 installs=1 resets=1`, and the
    /// faults when there were any.
    public var description: String {
        "requests=\(requests.values.reduce(0, +)) packets=\(dataPackets) bytes=\(dataBytesReceived) "
            + "init packet bytes=\(initPacketBytesReceived) notifications=\(notifications) responses=\(responses) "
            + "installs=\(installs) resets=\(resets)"
            + (lostPackets + overflows > 0 ? " lost packets=\(lostPackets) overflows=\(overflows)" : "")
    }
}
