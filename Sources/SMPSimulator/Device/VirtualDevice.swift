import CBOR
import Logging
import SMP

/// A virtual SMP device: an SMP server that processes frames as Zephyr's SMP layer does (§1.6,
/// §15.6) and answers through pluggable groups (``SimulatedGroup``), with optional fault injection.
///
/// Feed it each received frame (a UDP datagram, a reassembled serial packet…) with
/// ``handle(frame:)`` for its exact answers, or with ``deliveries(for:)`` for what a faulty link
/// would send. Frames are processed one at a time, in the order the calls arrive, like Zephyr's
/// single SMP work queue.
///
/// ```swift
/// let device = VirtualDevice()
/// let responses = await device.handle(frame: requestBytes)
/// ```
public actor VirtualDevice {
    /// The configuration the device was built with.
    public nonisolated let configuration: VirtualDeviceConfiguration
    /// Every reset the device performs, in order (the newest 64 are kept until read).
    public nonisolated let resets: AsyncStream<SimulatedReset>

    /// How many times the device has reset.
    public private(set) var resetCount = 0
    /// What the device has processed.
    public private(set) var statistics = VirtualDeviceStatistics()

    private let resetContinuation: AsyncStream<SimulatedReset>.Continuation
    private var groups: [any SimulatedGroup]
    private var groupIndex: [UInt16: Int] = [:]
    private var faults: FaultInjector
    private let encoder: ResponseEncoder
    private let uptime: @Sendable () -> Duration
    private let logger: Logger

    /// Creates a device.
    ///
    /// - Parameters:
    ///   - configuration: buffers, protocol flavour and what the OS group reports.
    ///   - faultInjection: faults to inject (none by default).
    ///   - groups: further groups; one with the ID of a built-in group (OS, image) replaces it.
    ///   - uptime: the device's monotonic clock, time since creation; the default measures real
    ///     time. Tests pass their own to control the real-time clock.
    ///   - logger: where the device logs each request at debug level.
    public init(
        configuration: VirtualDeviceConfiguration = VirtualDeviceConfiguration(),
        faultInjection: FaultInjection = .none, groups: [any SimulatedGroup] = [],
        uptime: (@Sendable () -> Duration)? = nil, logger: Logger = Logger(label: "smp.simulator")
    ) {
        self.configuration = configuration
        (resets, resetContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(64))
        faults = FaultInjector(faultInjection)
        encoder = ResponseEncoder(flavour: configuration.flavour, bufferSize: configuration.bufferSize)
        if let uptime {
            self.uptime = uptime
        } else {
            let start = ContinuousClock.now
            self.uptime = { ContinuousClock.now - start }
        }
        self.logger = logger
        self.groups = []
        let imageGroups: [any SimulatedGroup] = configuration.images.map { [ImageGroup(configuration: $0)] } ?? []
        for group in [OSGroup(configuration: configuration)] + imageGroups + groups {
            if let index = groupIndex[group.group.rawValue] {
                self.groups[index] = group
            } else {
                groupIndex[group.group.rawValue] = self.groups.count
                self.groups.append(group)
            }
        }
    }

    deinit { resetContinuation.finish() }

    // MARK: Processing

    /// Processes one received frame, which may hold several SMP messages back to back, and
    /// returns the response messages in order, exactly as a Zephyr device would send them.
    ///
    /// - A frame larger than the buffer size is dropped: no response.
    /// - Fewer than 8 bytes where a header should start end the processing silently.
    /// - A header declaring more payload than the frame holds is answered rc 9 (`ECORRUPT`), a
    ///   version above 1 rc 13 (Zephyr flavour); both end the processing.
    /// - Each request is answered; the first SMP-level error (unknown group or command rc 8, a
    ///   payload that does not decode rc 3, …) is answered and ends the processing.
    /// - Busy injection answers rc 10 instead of processing a request (and ends the processing).
    public func handle(frame: [UInt8]) -> [[UInt8]] {
        statistics.frames += 1
        guard frame.count <= configuration.bufferSize else {
            statistics.oversizedFrames += 1
            logger.debug("dropped a frame of \(frame.count) bytes (buffer size \(configuration.bufferSize))")
            return []
        }
        var responses: [[UInt8]] = []
        var offset = 0
        while let header = RequestHeader(frame, at: offset) {
            statistics.requests += 1
            offset += SMPHeader.size
            let (response, isError) = process(header, frame: frame, payloadStart: offset)
            statistics.responses += 1
            if isError { statistics.errorResponses += 1 }
            responses.append(response)
            offset += header.length
            if isError { break }
        }
        return responses
    }

    /// Processes one received frame like ``handle(frame:)`` and returns what the faulty link
    /// delivers: responses dropped, duplicated, delayed, held back or damaged as configured.
    public func deliveries(for frame: [UInt8]) -> [SimulatedDelivery] {
        faults.deliveries(for: handle(frame: frame))
    }

    private func process(_ header: RequestHeader, frame: [UInt8], payloadStart: Int) -> (bytes: [UInt8], isError: Bool) {
        if header.length > frame.count - payloadStart {
            return (encoder.errorResponse(to: header, code: .corrupt), true)
        }
        if configuration.flavour == .zephyr && header.versionBits > SMPProtocolVersion.v2.rawValue {
            return (encoder.errorResponse(to: header, code: .unsupportedTooNew), true)
        }
        if faults.answersBusy() {
            return (encoder.errorResponse(to: header, code: .busy), true)
        }
        let payload = Array(frame[payloadStart..<payloadStart + header.length])
        var context = SimulatedDeviceContext(configuration: configuration, uptime: uptime())
        let outcome = dispatch(header, payload: payload, context: &context)
        logger.debug("request \(header.group.rawValue)/\(header.command) op \(header.operationBits) → \(outcome)")
        let response = encoder.response(to: header, outcome: outcome)
        if !response.isError, let reset = context.requestedReset {
            performReset(force: reset.force, bootMode: reset.bootMode, context: context)
        }
        return response
    }

    private func dispatch(
        _ header: RequestHeader, payload: [UInt8], context: inout SimulatedDeviceContext
    ) -> Result<CBORMap, SimulatedError> {
        guard let index = groupIndex[header.group.rawValue] else { return .failure(.notSupported) }
        guard let operation = header.requestOperation else {
            return .failure(groups[index].implements(command: header.command) ? .invalidValue : .notSupported)
        }
        let request = SimulatedRequest(
            group: header.group, command: header.command, operation: operation, versionBits: header.versionBits,
            sequence: header.sequence, payloadBytes: payload)
        do {
            return .success(try groups[index].handle(request, context: &context))
        } catch {
            return .failure(error)
        }
    }

    private func performReset(force: Bool, bootMode: UInt8?, context: SimulatedDeviceContext) {
        resetCount += 1
        let event = SimulatedReset(number: resetCount, force: force, bootMode: bootMode, delay: configuration.resetDelay)
        logger.debug("reset #\(resetCount) (force \(force), boot mode \(bootMode.map(String.init) ?? "none"))")
        for index in groups.indices { groups[index].deviceDidReset(context: context) }
        resetContinuation.yield(event)
    }

    // MARK: Inspection and control

    /// The faults injected so far.
    public var faultStatistics: FaultStatistics { faults.statistics }

    /// The fault injection in force.
    public var faultInjection: FaultInjection { faults.settings }

    /// Replaces the fault injection; its generator restarts from the new seed and the
    /// statistics start again.
    public func setFaultInjection(_ faultInjection: FaultInjection) {
        faults = FaultInjector(faultInjection)
    }

    /// The state of the group with this ID (e.g. `OSGroup` for its clock), or nil.
    public func group(_ id: SMPGroup) -> (any SimulatedGroup)? {
        groupIndex[id.rawValue].map { groups[$0] }
    }
}
