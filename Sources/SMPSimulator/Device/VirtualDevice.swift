import CBOR
import Logging
import SMP

/// A virtual SMP device: an SMP server that processes frames as Zephyr's SMP layer does (docs/protocol/messages.md §1.6,
/// docs/protocol/transports.md §15.6) and answers through pluggable groups (``SimulatedGroup``), with optional fault injection.
///
/// Feed it each received frame (a UDP datagram, a reassembled serial packet…) with
/// ``handle(frame:)`` for its exact answers, or with ``deliveries(for:)`` for what a faulty link
/// would send. Frames are processed one at a time, in the order the calls arrive, like Zephyr's
/// single SMP work queue.
///
/// Time is read from the device's `uptime` clock, lazily (no timers run):
/// - A frame that costs device time (flash erases and writes reported through
///   ``SimulatedDeviceContext/spend(_:)``) keeps the device busy: processing starts when the
///   previous work is done, and ``deliveries(for:)`` delays the answers until it is finished.
/// - A reset is answered and announced at once (``resets``, ``resetCount``), but takes effect
///   ``VirtualDeviceConfiguration/resetDelay`` after the answer; until then the device answers
///   with its old state. It then stays silent for ``VirtualDeviceConfiguration/bootTime``,
///   dropping every frame (``VirtualDeviceStatistics/framesWhileResetting``). A reset request
///   answered while a reset is pending is announced too, but leaves the pending reset's time
///   as it is (as Zephyr's `k_work_schedule` does): the device resets once.
/// - A reset that is due takes effect before the next request is processed and before
///   ``group(_:)`` shows a group's state.
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
    /// Which program answers: the application, MCUboot serial recovery (with
    /// ``VirtualDeviceConfiguration/recovery``, entered by a reset with boot mode 1 or at start
    /// with ``VirtualDeviceConfiguration/startsInRecovery``; a reset from it boots the
    /// application again, unless no slot holds a valid image), or, in firmware-loader mode
    /// (``MCUbootMode/firmwareLoader`` with an image group), MCUboot's firmware loader (entered
    /// by a reset with boot mode 1, or when slot 0 holds no valid application; a reset from it
    /// starts the application from slot 0).
    public var personality: SimulatedPersonality {
        applyDueReset(at: uptime())
        return running
    }
    /// What the device has processed.
    public private(set) var statistics = VirtualDeviceStatistics()
    /// The device's own faults, given at creation.
    public nonisolated let deviceFaults: [DeviceFault]
    /// Whether a ``DeviceFault`` has silenced the device for good (``DeviceFault/dieMidUpload(fraction:)``
    /// reached, or a reset with ``DeviceFault/noReturn``): every frame is dropped from then on.
    public private(set) var isSilenced = false

    private let resetContinuation: AsyncStream<SimulatedReset>.Continuation
    private var groups: [any SimulatedGroup]
    private var groupIndex: [UInt16: Int] = [:]
    /// The groups as enumeration reports them, fixed at creation (computed once: asking each group
    /// for its handlers on every request would cost more than the request).
    private let groupInfos: [SimulatedGroupInfo]
    private var faults: FaultInjector
    private let encoder: ResponseEncoder
    private let uptime: @Sendable () -> Duration
    private let logger: Logger
    /// When the work already accepted is done (device uptime).
    private var busyUntil: Duration = .zero
    /// When an answered reset takes effect, if one is pending.
    private var pendingResetAt: Duration?
    /// Until when the device is booting after its last reset (frames are dropped).
    private var bootingUntil: Duration = .zero
    /// What runs now (``personality`` without applying a due reset).
    private var running: SimulatedPersonality
    /// The boot mode the pending reset asked for.
    private var pendingBootMode: UInt8?
    /// MCUboot serial recovery, when the device has it.
    private let recovery: MCUbootRecoveryServer?
    /// How long ``DeviceFault/slow(_:)`` makes every request take (zero without it).
    private let slowDelay: Duration
    /// The upload fraction at which ``DeviceFault/dieMidUpload(fraction:)`` silences the device.
    private let dieFraction: Double?

    /// Creates a device.
    ///
    /// - Parameters:
    ///   - configuration: buffers, protocol flavour and what the OS group reports.
    ///   - faultInjection: faults to inject (none by default).
    ///   - deviceFaults: the device's own faults (none by default).
    ///   - groups: further groups; one with the ID of a built-in group (OS, image, the
    ///     ``standardGroups(for:)``) replaces it.
    ///   - uptime: the device's monotonic clock, time since creation; the default measures real
    ///     time. Tests pass their own to control the real-time clock.
    ///   - logger: where the device logs each request at debug level.
    public init(
        configuration: VirtualDeviceConfiguration = VirtualDeviceConfiguration(),
        faultInjection: FaultInjection = .none, deviceFaults: [DeviceFault] = [], groups: [any SimulatedGroup] = [],
        uptime: (@Sendable () -> Duration)? = nil, logger: Logger = Logger(label: "smp.simulator")
    ) {
        self.configuration = configuration
        self.deviceFaults = deviceFaults
        slowDelay = deviceFaults.reduce(.zero) { total, fault in
            if case .slow(let delay) = fault { return total + delay }
            return total
        }
        dieFraction = deviceFaults.compactMap { fault -> Double? in
            if case .dieMidUpload(let fraction) = fault { return fraction }
            return nil
        }.min()
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
        recovery = configuration.recovery.map(MCUbootRecoveryServer.init)
        running = configuration.recovery != nil && configuration.startsInRecovery ? .recovery : .application
        self.groups = []
        let imageGroups: [any SimulatedGroup] = configuration.images.map { images in
            var group = ImageGroup(configuration: images)
            group.rejectsUploads = deviceFaults.contains(.rejectImage)
            if configuration.bootloaderMode == .firmwareLoader { group.installFirmwareLoader() }
            return [group]
        } ?? []
        let builtIn = [OSGroup(configuration: configuration)] + imageGroups + Self.standardGroups(for: configuration)
        for group in builtIn + groups {
            if let index = groupIndex[group.group.rawValue] {
                self.groups[index] = group
            } else {
                groupIndex[group.group.rawValue] = self.groups.count
                self.groups.append(group)
            }
        }
        groupInfos = self.groups.map(SimulatedGroupInfo.init)
    }

    deinit { resetContinuation.finish() }

    // MARK: Processing

    /// Processes one received frame, which may hold several SMP messages back to back, and
    /// returns the response messages in order, exactly as a Zephyr device would send them.
    ///
    /// - A frame arriving while the device boots after a reset is dropped: no response.
    /// - A frame larger than the buffer size is dropped: no response.
    /// - Fewer than 8 bytes where a header should start end the processing silently.
    /// - A header declaring more payload than the frame holds is answered rc 9 (`ECORRUPT`), a
    ///   version above 1 rc 13 (Zephyr flavour); both end the processing.
    /// - Each request is answered; the first SMP-level error (unknown group or command rc 8, a
    ///   payload that does not decode rc 3, …) is answered and ends the processing.
    /// - Busy injection answers rc 10 instead of processing a request (and ends the processing).
    public func handle(frame: [UInt8]) -> [[UInt8]] {
        receive(frame).responses
    }

    /// Processes one received frame like ``handle(frame:)`` and returns what the faulty link
    /// delivers: responses dropped, duplicated, delayed, held back or damaged as configured, each
    /// delayed further until the device has finished the work the frame costs.
    public func deliveries(for frame: [UInt8]) -> [SimulatedDelivery] {
        let (responses, busy) = receive(frame)
        return faults.deliveries(for: responses).map { SimulatedDelivery(bytes: $0.bytes, delay: $0.delay + busy) }
    }

    /// Processes a frame arriving now; returns the responses and how long after now the last
    /// of them is ready.
    private func receive(_ frame: [UInt8]) -> (responses: [[UInt8]], delay: Duration) {
        let now = uptime()
        applyDueReset(at: now)
        statistics.frames += 1
        guard !isSilenced else {
            logger.debug("dropped a frame of \(frame.count) bytes: the device is silenced by its fault")
            return ([], .zero)
        }
        guard now >= bootingUntil else {
            statistics.framesWhileResetting += 1
            logger.debug("dropped a frame of \(frame.count) bytes: the device is booting")
            return ([], .zero)
        }
        if running == .recovery, let recovery { return receiveInRecovery(frame, at: now, recovery: recovery) }
        guard frame.count <= configuration.bufferSize else {
            statistics.oversizedFrames += 1
            logger.debug("dropped a frame of \(frame.count) bytes (buffer size \(configuration.bufferSize))")
            return ([], .zero)
        }
        var clock = max(now, busyUntil)
        var responses: [[UInt8]] = []
        var offset = 0
        while let header = RequestHeader(frame, at: offset) {
            applyDueReset(at: clock)
            guard clock >= bootingUntil else { break }
            statistics.requests += 1
            offset += SMPHeader.size
            let completedUploads = dieFraction == nil ? 0 : imageGroup?.completedUploads ?? 0
            let (response, isError) = process(header, frame: frame, payloadStart: offset, clock: &clock)
            clock += slowDelay
            if diesMidUpload(completedBefore: completedUploads) {
                isSilenced = true
                logger.debug("silenced mid-upload by its fault")
                busyUntil = clock
                return ([], .zero)
            }
            statistics.responses += 1
            if isError { statistics.errorResponses += 1 }
            responses.append(response)
            offset += header.length
            if isError { break }
        }
        busyUntil = clock
        return (responses, clock - now)
    }

    /// Processes one request starting at `clock`, which advances by the time the request costs.
    private func process(
        _ header: RequestHeader, frame: [UInt8], payloadStart: Int, clock: inout Duration
    ) -> (bytes: [UInt8], isError: Bool) {
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
        var context = SimulatedDeviceContext(
            configuration: configuration, uptime: clock, supportedGroups: groupInfos,
            requestsHandled: statistics.requests)
        let outcome = dispatch(header, payload: payload, context: &context)
        clock += context.timeSpent
        logger.debug("request \(header.group.rawValue)/\(header.command) op \(header.operationBits) → \(outcome)")
        let response = encoder.response(to: header, outcome: outcome)
        if !response.isError, let reset = context.requestedReset {
            announceReset(force: reset.force, bootMode: reset.bootMode, answeredAt: clock, delay: configuration.resetDelay)
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

    /// Counts and announces an answered reset, and schedules it unless one is pending.
    private func announceReset(force: Bool, bootMode: UInt8?, answeredAt answer: Duration, delay: Duration) {
        resetCount += 1
        let event = SimulatedReset(number: resetCount, force: force, bootMode: bootMode, delay: delay)
        logger.debug("reset #\(resetCount) (force \(force), boot mode \(bootMode.map(String.init) ?? "none"))")
        if pendingResetAt == nil {
            pendingResetAt = answer + delay
            pendingBootMode = bootMode
        }
        resetContinuation.yield(event)
    }

    /// Performs the pending reset if it is due at `time`: every group hears about it (MCUboot
    /// swaps…), and the device boots until ``VirtualDeviceConfiguration/bootTime`` has passed.
    private func applyDueReset(at time: Duration) {
        guard let resetAt = pendingResetAt, resetAt <= time else { return }
        pendingResetAt = nil
        let context = SimulatedDeviceContext(configuration: configuration, uptime: resetAt)
        var booted = nextPersonality()
        for index in groups.indices {
            if var images = groups[index] as? ImageGroup, configuration.bootloaderMode == .firmwareLoader {
                booted = images.bootInFirmwareLoaderMode(loaderRequested: pendingBootMode == 1) ? .firmwareLoader : .application
                groups[index] = images
                continue
            }
            guard var images = groups[index] as? ImageGroup, recovery != nil else {
                groups[index].deviceDidReset(context: context)
                continue
            }
            switch (running, booted) {
            case (_, .recovery):
                images.enterRecovery()
            case (.recovery, .application):
                let checksHash = configuration.images?.checksImageHash ?? false
                if !images.bootAfterRecovery(mode: configuration.bootloaderMode, checkingHash: checksHash) {
                    // MCUboot finds nothing valid to boot and stays in serial recovery.
                    images.enterRecovery()
                    booted = .recovery
                }
            case (.application, .application), (.firmwareLoader, _), (_, .firmwareLoader):
                images.deviceDidReset(context: context)
            }
            groups[index] = images
        }
        running = booted
        pendingBootMode = nil
        logger.debug("booted into \(running.rawValue)")
        bootingUntil = resetAt + configuration.bootTime
        busyUntil = bootingUntil
        logger.debug("reset took effect at \(resetAt); booting until \(bootingUntil)")
        if deviceFaults.contains(.noReturn) {
            isSilenced = true
            logger.debug("silenced after the reset by its fault")
        }
    }

    /// The image group, if the device has it.
    private var imageGroup: ImageGroup? {
        groupIndex[SMPGroup.image.rawValue].flatMap { groups[$0] as? ImageGroup }
    }

    /// Whether ``DeviceFault/dieMidUpload(fraction:)`` is reached: the upload in progress (or
    /// one finished since `completedBefore` uploads had finished) has come that far.
    private func diesMidUpload(completedBefore: Int) -> Bool {
        guard let fraction = dieFraction, let progress = imageGroup?.uploadProgress(completedBefore: completedBefore) else {
            return false
        }
        return progress >= fraction
    }

    /// What runs after the pending reset: recovery when the application asked for boot mode 1
    /// (bootloader) and the device has it; the application otherwise (also after recovery).
    private func nextPersonality() -> SimulatedPersonality {
        recovery != nil && running == .application && pendingBootMode == 1 ? .recovery : .application
    }

    /// A frame for MCUboot serial recovery: one request per frame, handled once the previous one
    /// is done (its flash erase and writes). MCUboot reads requests one at a time into its one
    /// buffer; what arrives meanwhile waits in the UART's line buffers (the QEMU fixture answers a
    /// request sent right behind an upload's first chunk). One larger than the buffer is dropped.
    private func receiveInRecovery(_ frame: [UInt8], at now: Duration, recovery: MCUbootRecoveryServer) -> (responses: [[UInt8]], delay: Duration) {
        guard frame.count <= recovery.configuration.receiveCapacity else {
            statistics.oversizedFrames += 1
            logger.debug("dropped a frame of \(frame.count) bytes (recovery buffer \(recovery.configuration.bufferSize))")
            return ([], .zero)
        }
        var images = groupIndex[SMPGroup.image.rawValue].flatMap { groups[$0] as? ImageGroup }
        let storage = groupIndex[SMPGroup.zephyrBasic.rawValue].flatMap { (groups[$0] as? ZephyrBasicGroup)?.storage }
        let outcome = recovery.handle(frame: frame, images: &images) {
            storage?.erase()
            return storage != nil
        }
        if let images, let index = groupIndex[SMPGroup.image.rawValue] { groups[index] = images }
        guard let response = outcome.response else { return ([], .zero) }
        statistics.requests += 1
        statistics.responses += 1
        let clock = max(now, busyUntil) + outcome.timeSpent
        busyUntil = clock
        if outcome.resets {
            announceReset(force: false, bootMode: nil, answeredAt: clock, delay: MCUbootRecoveryConfiguration.resetDelay)
        }
        logger.debug("recovery request \(frame.count) bytes answered")
        return ([response], clock - now)
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

    /// The state of the group with this ID (e.g. `OSGroup` for its clock), or nil; a reset that
    /// is due takes effect first.
    public func group(_ id: SMPGroup) -> (any SimulatedGroup)? {
        applyDueReset(at: uptime())
        return groupIndex[id.rawValue].map { groups[$0] }
    }
}
