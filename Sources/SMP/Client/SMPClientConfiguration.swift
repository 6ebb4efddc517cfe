/// How an ``SMPClient`` times, retries and versions its requests.
public struct SMPClientConfiguration: Sendable, Hashable {
    /// How long to wait for each response by default.
    public var timeout: Duration
    /// How many times a retry-safe request is sent again after a timeout or an invalid response.
    public var retries: Int
    /// How many times a request answered "busy" (`MGMT_ERR_EBUSY`) is sent again.
    public var busyRetries: Int
    /// The wait before the first busy retry; it doubles with each further retry.
    public var busyBackoff: Duration
    /// The protocol version of the first request; the client falls back to v1 when the device
    /// answers with version 0.
    public var initialVersion: SMPProtocolVersion
    /// The device's SMP buffer size to assume when it does not report its MCUmgr parameters
    /// (nil: the transport's default, Zephyr's 384 for serial); requests that do not fit are
    /// refused before they are sent.
    public var assumedBufferSize: Int?

    /// Creates a configuration.
    public init(
        timeout: Duration = .seconds(3), retries: Int = 2, busyRetries: Int = 4,
        busyBackoff: Duration = .milliseconds(50), initialVersion: SMPProtocolVersion = .v2,
        assumedBufferSize: Int? = nil
    ) {
        self.assumedBufferSize = assumedBufferSize
        self.timeout = timeout
        self.retries = retries
        self.busyRetries = busyRetries
        self.busyBackoff = busyBackoff
        self.initialVersion = initialVersion
    }
}
