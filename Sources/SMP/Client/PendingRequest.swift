/// A request waiting for its response.
struct PendingRequest {
    let request: SMPRequest
    let sequence: UInt8
    var version: SMPProtocolVersion
    let timeout: Duration
    var retriesLeft: Int
    let continuation: CheckedContinuation<Result<SMPResponse, SMPError>, Never>
    var attempts = 0
    /// When the request was made (before its first attempt was queued), on the client's clock.
    let createdAt: Duration
    /// When the current attempt times out.
    var deadline: Duration
    /// When the current attempt was handed to the link.
    var sentAt: Duration
    /// The client's count of transmissions when the current attempt went out: on a link that
    /// answers in order, an answer to a later transmission proves this one lost.
    var transmission = 0
    var lastDiscarded: String?
    var versionRetried = false
    /// The request encoded with its version and sequence number.
    var frame: [UInt8]

    init(
        request: SMPRequest, sequence: UInt8, version: SMPProtocolVersion, timeout: Duration, retriesLeft: Int,
        createdAt: Duration, continuation: CheckedContinuation<Result<SMPResponse, SMPError>, Never>
    ) {
        self.request = request
        self.sequence = sequence
        self.version = version
        self.timeout = timeout
        self.retriesLeft = retriesLeft
        self.createdAt = createdAt
        self.deadline = createdAt
        self.sentAt = createdAt
        self.continuation = continuation
        self.frame = Self.encode(request, sequence: sequence, version: version)
    }

    static func encode(_ request: SMPRequest, sequence: UInt8, version: SMPProtocolVersion) -> [UInt8] {
        SMPMessage(
            header: SMPHeader(
                operation: request.operation, version: version, length: 0, group: request.group,
                sequence: sequence, command: request.command),
            payload: request.payload
        ).encoded()
    }
}
