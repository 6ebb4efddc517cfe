import CBOR
import Logging

/// Talks SMP to one device over one transport.
///
/// Sequence numbers belong to the connection; responses are matched by sequence number, group,
/// command and operation; many requests may be in flight; each has its own timeout; only
/// retry-safe requests are sent again; the client falls back from SMP v2 to v1 when the device
/// answers with version 0; and every pending request fails at once when the link closes.
public actor SMPClient {
    /// The link to the device.
    public nonisolated let transport: any SMPTransport
    /// The clock deadlines, back-offs and round trips are taken from.
    nonisolated let time: ClockTime
    /// Timeouts, retries and versioning.
    public nonisolated let configuration: SMPClientConfiguration

    /// The protocol version the next request is sent with.
    public private(set) var protocolVersion: SMPProtocolVersion
    /// Counters about the link.
    public internal(set) var statistics = SMPClientStatistics()

    let logger: Logger
    var pending: [UInt8: PendingRequest] = [:]
    /// Attempts handed to the link so far (each attempt's number orders it on the link).
    var transmissions = 0
    /// The latest attempt (by transmission number) that was answered.
    var answeredTransmission = 0
    /// A smoothed round trip of answered requests, for deciding when to probe a silent link.
    var roundTrip: Duration?
    /// Probes a link that answers in order while requests wait (see `probeWhileWaiting`).
    var prober: Task<Void, Never>?
    /// Attempts handed to the sender and not yet taken by the link.
    var unwritten = 0
    /// Whether ``tuneLinePacing()`` has run on this connection.
    var linePacingTuned = false
    /// The pacing in force before a transfer's chunk tried a burst
    /// (``prepareLinePacing(forTransferOf:)``): a lost trial slows down no further than this.
    var linePacingBeforeTrial: LinePacing?
    private var nextSequence: UInt8
    private var sequenceWaiters: [(id: Int, continuation: CheckedContinuation<Void, Never>)] = []
    private var nextWaiterID = 0
    var closedBecause: SMPTransportError?
    private var receiver: Task<Void, Never>?
    private var sender: Task<Void, Never>?
    private var outbound: AsyncStream<OutboundFrame>.Continuation?
    private var parametersTask: Task<MCUmgrParameters, Never>?
    private var sweeper: Task<Void, Never>?
    private var sweepAt: Duration?
    var knownParameters: MCUmgrParameters?
    /// The hash type file transfers compare by, once asked on this connection
    /// (``RemoteFileHashComparison/preferredType(_:)``): nil when not asked yet, `.some(nil)` for
    /// the device's default.
    var fileHashType: String??

    /// Creates a client over an open transport.
    ///
    /// - Parameters:
    ///   - transport: the open link to the device.
    ///   - configuration: timeouts, retries and versioning.
    ///   - logger: where requests, answers and retries are logged.
    ///   - clock: what timeouts, busy back-offs and round trips run on: the continuous clock, or a
    ///     test's own clock, which then decides when a request's time is up.
    public init(
        transport: any SMPTransport, configuration: SMPClientConfiguration = SMPClientConfiguration(),
        logger: Logger = Logger(label: "smp.client"), clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.transport = transport
        self.time = ClockTime(clock)
        self.configuration = configuration
        self.logger = logger
        self.protocolVersion = configuration.initialVersion
        self.nextSequence = UInt8.random(in: 0...UInt8.max)
    }

    // MARK: Requests

    /// Sends a typed command and returns its decoded response.
    ///
    /// A device error is thrown as ``SMPError/device(_:request:)``; "busy" answers are retried
    /// with a doubling back-off first. `onQueued`, when given, is called once the request is queued
    /// for sending (or has failed before that), so that a caller can keep several requests in
    /// flight and still have them leave in order.
    public func send<Command: SMPCommand>(
        _ command: Command, onQueued: (@Sendable () -> Void)? = nil
    ) async throws(SMPError) -> Command.Response {
        let request = command.request
        let response = try await checkedResponse(to: request, onQueued: onQueued)
        do {
            return try command.decodeResponse(response.payload)
        } catch {
            throw .invalidResponse(SMPRequestSummary(request), error)
        }
    }

    /// Sends a request and returns the response if the device reports success; busy answers are
    /// retried with back-off, other device errors are thrown. `onQueued` as for ``send(_:onQueued:)``.
    public func checkedResponse(to request: SMPRequest, onQueued: (@Sendable () -> Void)? = nil) async throws(SMPError) -> SMPResponse {
        let response = try await responseRetryingBusy(to: request, onQueued: onQueued)
        if let error = response.deviceError { throw .device(error, request: SMPRequestSummary(request)) }
        return response
    }

    /// Sends a request and returns the first answer that is not "busy", errors included: busy
    /// answers are retried with a doubling back-off, up to ``SMPClientConfiguration/busyRetries``
    /// times (the last answer is returned as it is). `answer`, when given, is the answer already
    /// received to `request` (from a pipeline): the request is sent again only if it is busy.
    /// `onQueued` as for ``send(_:onQueued:)``.
    public func responseRetryingBusy(
        to request: SMPRequest, after answer: SMPResponse? = nil, onQueued: (@Sendable () -> Void)? = nil
    ) async throws(SMPError) -> SMPResponse {
        var backoff = configuration.busyBackoff
        var busyRetriesLeft = configuration.busyRetries
        var queued = onQueued
        var received = answer
        while true {
            let response: SMPResponse
            if let received {
                response = received
            } else {
                response = try await exchange(request, onQueued: queued)
                queued = nil
            }
            received = nil
            guard case .returnCode(let code, _, _)? = response.deviceError, code == .busy, busyRetriesLeft > 0 else { return response }
            busyRetriesLeft -= 1
            logger.debug("device busy; retrying in \(backoff)")
            do { try await time.sleep(for: backoff) } catch { throw .cancelled(SMPRequestSummary(request)) }
            backoff *= 2
        }
    }

    /// Sends a request and returns whatever the device answered, errors included. `onQueued` as
    /// for ``send(_:onQueued:)``.
    public func exchange(_ request: SMPRequest, onQueued: (@Sendable () -> Void)? = nil) async throws(SMPError) -> SMPResponse {
        if let closedBecause {
            onQueued?()
            throw .transport(closedBecause)
        }
        startLink()
        await learnParametersIfLarge(request)
        await tuneLinePacingIfNeeded(for: request)
        guard await reserveSequenceSlot() else {
            onQueued?()
            throw .cancelled(SMPRequestSummary(request))
        }
        let sequence = allocateSequence()
        let result: Result<SMPResponse, SMPError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                start(request, sequence: sequence, continuation: continuation)
                onQueued?()
            }
        } onCancel: {
            Task { await self.cancel(sequence) }
        }
        return try result.get()
    }

    /// The device's MCUmgr parameters, read once per connection; assumed from the transport's
    /// defaults when the device does not answer them.
    public func parameters() async -> MCUmgrParameters {
        if let parametersTask { return await parametersTask.value }
        let task = Task { await self.readParameters() }
        parametersTask = task
        let value = await task.value
        knownParameters = value
        return value
    }

    /// Forgets the MCUmgr parameters (and the file hash type) read so far: the device restarted,
    /// possibly into other firmware (its bootloader's serial recovery has its own buffer), so they
    /// are read again when next needed.
    public func forgetParameters() {
        parametersTask = nil
        knownParameters = nil
        fileHashType = nil
    }

    /// Remembers the file hash type for this connection (see ``fileHashType``).
    func remember(fileHashType type: String?) {
        fileHashType = .some(type)
    }

    /// The largest SMP message (header included) both the link and the device accept
    /// (`buf_size` less what the transport's framing keeps in the device's buffer).
    public func maximumMessageSize() async -> Int {
        min(transport.maximumMessageSize, await parameters().bufferSize - transport.deviceBufferOverhead)
    }

    /// Closes the link; pending requests fail at once.
    public func close() async {
        logger.debug("closing the connection to \(transport.endpoint)")
        await transport.close()
        linkEnded(SMPTransportError(.closed, "the connection to \(transport.endpoint) was closed"))
    }

    /// The largest request that is sent before the device's MCUmgr parameters are known: every
    /// device's buffer holds it (Zephyr's smallest sensible `buf_size` is about 96 bytes).
    static let smallRequestSize = 64

    /// A request larger than ``smallRequestSize`` waits for the device's MCUmgr parameters first,
    /// so that it is checked against the device's `buf_size` (or, when the device does not report
    /// it, the assumed one) and refused before sending if it does not fit, rather than dropped by
    /// the device unanswered.
    private func learnParametersIfLarge(_ request: SMPRequest) async {
        guard knownParameters == nil, request.command != OSCommandID.parameters || request.group != .os else { return }
        guard encodedSize(of: request) > Self.smallRequestSize else { return }
        _ = await parameters()
    }

    private func readParameters() async -> MCUmgrParameters {
        do {
            return try await send(OSParameters())
        } catch {
            var assumed = transport.defaultParameters
            if let size = configuration.assumedBufferSize { assumed.bufferSize = size }
            assumed.source = .assumed(reason: "the device did not report them: \(error)")
            logger.debug("MCUmgr parameters: \(assumed)")
            return assumed
        }
    }

    // MARK: Sequence numbers

    /// Waits until fewer than 256 requests are pending; false (and nothing is sent) when the
    /// calling task is cancelled before then.
    private func reserveSequenceSlot() async -> Bool {
        while pending.count >= 256 {
            if Task.isCancelled { return false }
            let id = nextWaiterID
            nextWaiterID += 1
            await withTaskCancellationHandler {
                await withCheckedContinuation { sequenceWaiters.append((id, $0)) }
            } onCancel: {
                Task { await self.stopWaiting(id) }
            }
        }
        guard !Task.isCancelled else {
            // Hand the free slot this task was woken for to the next waiter.
            if !sequenceWaiters.isEmpty { sequenceWaiters.removeFirst().continuation.resume() }
            return false
        }
        return true
    }

    private func stopWaiting(_ id: Int) {
        guard let index = sequenceWaiters.firstIndex(where: { $0.id == id }) else { return }
        sequenceWaiters.remove(at: index).continuation.resume()
    }

    private func allocateSequence() -> UInt8 {
        while pending[nextSequence] != nil { nextSequence &+= 1 }
        defer { nextSequence &+= 1 }
        return nextSequence
    }

    // MARK: Sending

    private func start(
        _ request: SMPRequest, sequence: UInt8,
        continuation: CheckedContinuation<Result<SMPResponse, SMPError>, Never>
    ) {
        let entry = PendingRequest(
            request: request, sequence: sequence, version: protocolVersion,
            timeout: request.timeout ?? configuration.timeout,
            retriesLeft: request.isRetrySafe ? configuration.retries : 0, createdAt: time.now(), continuation: continuation)
        if let closedBecause {
            continuation.resume(returning: .failure(.transport(closedBecause)))
            return
        }
        let size = entry.frame.count
        let limit = transport.maximumMessageSize
        if size > limit {
            continuation.resume(returning: .failure(.requestTooLarge(
                SMPRequestSummary(request), size: size, limit: limit, limitSource: "\(transport.endpoint) link limit")))
            return
        }
        if let device = knownParameters, size > device.bufferSize - transport.deviceBufferOverhead {
            continuation.resume(returning: .failure(.requestTooLarge(
                SMPRequestSummary(request), size: size, limit: device.bufferSize - transport.deviceBufferOverhead,
                limitSource: limitSource(device))))
            return
        }
        pending[sequence] = entry
        statistics.requests += 1
        transmit(sequence)
    }

    /// Names the buffer size that refused a request: the device's, or the assumed one.
    private func limitSource(_ parameters: MCUmgrParameters) -> String {
        let framing = transport.deviceBufferOverhead == 0 ? "" : " less \(transport.deviceBufferOverhead) bytes of framing"
        switch parameters.source {
        case .device:
            return "device buf_size \(parameters.bufferSize)\(framing)"
        case .assumed:
            return "assumed buf_size \(parameters.bufferSize)\(framing): the device does not report its MCUmgr parameters; "
                + "if its buffer is larger, say so with ?buf-size=BYTES in the connection string"
        }
    }

    /// Sends (or sends again) a pending request and sets its deadline.
    func transmit(_ sequence: UInt8) {
        guard var entry = pending[sequence] else { return }
        transmissions += 1
        entry.transmission = transmissions
        entry.attempts += 1
        // The timeout runs from when the link took the request (see `written`): a paced serial
        // link may hold it behind earlier ones. Until then the link's own stall limit applies.
        entry.sentAt = time.now()
        entry.deadline = entry.sentAt + entry.timeout + Self.queueAllowance
        pending[sequence] = entry
        scheduleSweep(at: entry.deadline)
        logRequest(entry)
        if logger.logLevel <= .trace {
            logger.trace("→ \(Hex.string(entry.frame, separator: " "))", metadata: ["seq": "\(sequence)"])
        }
        unwritten += 1
        outbound?.yield(OutboundFrame(sequence: sequence, transmission: entry.transmission, bytes: entry.frame))
        probeWhileWaiting()
    }

    /// How long a request may wait to be written before its own timeout starts anyway.
    static var queueAllowance: Duration { .seconds(30) }

    /// The link took attempt `transmission` of request `sequence`: its timeout starts now.
    private func written(_ frame: OutboundFrame) {
        unwritten -= 1
        guard var entry = pending[frame.sequence], entry.transmission == frame.transmission else { return }
        entry.sentAt = time.now()
        entry.deadline = entry.sentAt + entry.timeout
        pending[frame.sequence] = entry
        scheduleSweep(at: entry.deadline)
    }

    // MARK: Deadlines

    /// Makes sure one timer task wakes no later than `instant`. A single task serves every pending
    /// request, so a request costs no timer of its own.
    private func scheduleSweep(at instant: Duration) {
        if let wake = sweepAt, wake <= instant { return }
        sweeper?.cancel()
        sweepAt = instant
        sweeper = Task { await self.sweep(after: instant) }
    }

    private func sweep(after instant: Duration) async {
        do { try await time.sleepUntil(instant) } catch { return }
        sweep()
    }

    /// Handles every request whose deadline has passed, then waits for the next deadline.
    private func sweep() {
        sweeper = nil
        sweepAt = nil
        let now = time.now()
        let expired = pending.filter { $0.value.deadline <= now }
        // One step slower for what is sent again together (not when a resend waits for the
        // device to drop a partial message: that is the same loss).
        let resent = expired.values.filter { isResentNow($0, at: now) }
        if !resent.isEmpty { slowLinePacingAfterLoss(of: resent.map(\.frame)) }
        for sequence in expired.keys { expire(sequence) }
        if let next = pending.values.map(\.deadline).min() { scheduleSweep(at: next) }
    }

    /// Whether a request whose time is up is sent again at `now`: it has retries left, and the
    /// device has had time to drop a partial copy of it (``SMPTransport/partialMessageExpiry``).
    private func isResentNow(_ entry: PendingRequest, at now: Duration) -> Bool {
        entry.retriesLeft > 0 && !isHeldForPartialExpiry(entry, at: now)
    }

    private func isHeldForPartialExpiry(_ entry: PendingRequest, at now: Duration) -> Bool {
        transport.partialMessageExpiry.map { now < entry.sentAt + $0 } ?? false
    }

    /// A request's time is up: send it again if that is harmless and allowed, else fail it.
    private func expire(_ sequence: UInt8) {
        guard let entry = pending[sequence] else { return }
        if entry.retriesLeft > 0, isHeldForPartialExpiry(entry, at: time.now()), let expiry = transport.partialMessageExpiry {
            // The device may still hold part of the lost copy: resend once it has dropped it.
            pending[sequence]?.deadline = entry.sentAt + expiry
            return
        }
        if entry.retriesLeft > 0 {
            pending[sequence]?.retriesLeft -= 1
            statistics.retransmissions += 1
            logger.debug("no response to seq \(sequence) within \(entry.timeout); sending again")
            transmit(sequence)
            return
        }
        statistics.timeouts += 1
        finish(sequence, .failure(.timeout(
            SMPRequestSummary(entry.request), after: entry.timeout, attempts: entry.attempts,
            lastDiscarded: entry.lastDiscarded, elapsed: time.now() - entry.createdAt)))
    }

    private func cancel(_ sequence: UInt8) {
        guard let entry = pending[sequence] else { return }
        finish(sequence, .failure(.cancelled(SMPRequestSummary(entry.request))))
    }

    func finish(_ sequence: UInt8, _ result: Result<SMPResponse, SMPError>) {
        guard let entry = pending.removeValue(forKey: sequence) else { return }
        entry.continuation.resume(returning: result)
        if !sequenceWaiters.isEmpty { sequenceWaiters.removeFirst().continuation.resume() }
    }

    // MARK: The link

    private func startLink() {
        guard receiver == nil else { return }
        let transport = self.transport
        let (stream, continuation) = AsyncStream<OutboundFrame>.makeStream()
        outbound = continuation
        // One sender keeps frames in the order they were queued.
        sender = Task {
            for await frame in stream {
                do {
                    try await transport.send(frame.bytes)
                    self.written(frame)
                } catch {
                    self.linkEnded(Self.transportError(error, endpoint: transport.endpoint))
                    return
                }
            }
        }
        receiver = Task {
            do {
                for try await frame in transport.inbound { self.receive(frame) }
                self.linkEnded(SMPTransportError(.closed, "the connection to \(transport.endpoint) was closed"))
            } catch {
                self.linkEnded(Self.transportError(error, endpoint: transport.endpoint))
            }
        }
    }

    private static func transportError(_ error: any Error, endpoint: String) -> SMPTransportError {
        error as? SMPTransportError ?? SMPTransportError(.io, "\(endpoint): \(error)")
    }

    private func linkEnded(_ error: SMPTransportError) {
        guard closedBecause == nil else { return }
        closedBecause = error
        outbound?.finish()
        sweeper?.cancel()
        prober?.cancel()
        for sequence in Array(pending.keys) { finish(sequence, .failure(.transport(error))) }
        for waiter in sequenceWaiters { waiter.continuation.resume() }
        sequenceWaiters.removeAll()
    }

    // MARK: Receiving

    private func receive(_ frame: [UInt8]) {
        if logger.logLevel <= .trace { logger.trace("← \(Hex.string(frame, separator: " "))") }
        var rest = frame[...]
        while !rest.isEmpty {
            let header: SMPHeader
            do {
                header = try SMPHeader(decoding: rest)
            } catch {
                discard(error == .truncatedHeader(count: rest.count) ? .truncatedHeader : .invalidOperation, "\(error)")
                return
            }
            let total = SMPHeader.size + Int(header.length)
            guard rest.count >= total else {
                discard(.lengthMismatch, "\(SMPFrameError.lengthMismatch(declared: Int(header.length), available: rest.count - SMPHeader.size))")
                return
            }
            let body = rest.prefix(total)
            rest = rest.dropFirst(total)
            deliver(header: header, body: body)
        }
    }

    private func deliver(header: SMPHeader, body: ArraySlice<UInt8>) {
        guard header.operation.isResponse else { return discard(.notAResponse, "\(header)") }
        guard let entry = pending[header.sequence] else { return discard(.unmatchedSequence, "\(header)") }
        let request = entry.request
        guard header.group == request.group, header.command == request.command,
              header.operation == request.operation.response
        else { return discard(.mismatchedResponse, "\(header)") }
        let message: SMPMessage
        do {
            message = try SMPMessage.decodePrefix(body).message
        } catch {
            discard(.invalidPayload, "\(error)")
            pending[header.sequence]?.lastDiscarded = "\(error)"
            if entry.retriesLeft > 0 {
                pending[header.sequence]?.retriesLeft -= 1
                statistics.retransmissions += 1
                transmit(header.sequence)
            }
            return
        }
        if negotiateVersion(header: header, payload: message.payload, entry: entry) { return }
        statistics.responses += 1
        recordAnswer(to: entry)
        logResponse(to: entry, header: header, payload: message.payload, size: body.count)
        if transport.answersInOrder { recoverRequestsLost(before: entry) }
        finish(header.sequence, .success(SMPResponse(header: header, payload: message.payload)))
    }

    /// Adopts the device's protocol version; returns true when the request was sent again.
    private func negotiateVersion(header: SMPHeader, payload: CBORMap, entry: PendingRequest) -> Bool {
        let code = payload["rc"]?.int64Value
        if entry.version == .v2 && code == SMPReturnCode.unsupportedTooNew.rawValue {
            return resend(entry, as: .v1, reason: "the device rejected SMP v2 (rc 13)")
        }
        if entry.version == .v1 && code == SMPReturnCode.unsupportedTooOld.rawValue {
            return resend(entry, as: .v2, reason: "the device requires SMP v2 (rc 12)")
        }
        if header.versionBits == SMPProtocolVersion.v1.rawValue && protocolVersion == .v2 {
            protocolVersion = .v1
            logger.debug("the device answers with SMP v1; using v1 from now on")
        }
        return false
    }

    private func resend(_ entry: PendingRequest, as version: SMPProtocolVersion, reason: String) -> Bool {
        guard !entry.versionRetried else { return false }
        logger.debug("\(reason); sending again as \(version)")
        protocolVersion = version
        pending[entry.sequence]?.version = version
        pending[entry.sequence]?.frame = PendingRequest.encode(entry.request, sequence: entry.sequence, version: version)
        pending[entry.sequence]?.versionRetried = true
        statistics.retransmissions += 1
        transmit(entry.sequence)
        return true
    }

    private func discard(_ reason: SMPClientStatistics.DiscardReason, _ detail: String) {
        statistics.discarded[reason, default: 0] += 1
        logger.debug("discarded a received frame (\(reason.rawValue)): \(detail)")
    }
}

/// A request attempt on its way to the link.
private struct OutboundFrame: Sendable {
    var sequence: UInt8
    var transmission: Int
    var bytes: [UInt8]
}
