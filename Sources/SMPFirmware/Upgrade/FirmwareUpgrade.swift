import SMP

/// Installs firmware on a device: reads its state, plans (``UpgradePlanner``), then runs the plan's
/// steps one by one (smp-protocol.md §17), reporting each through ``UpgradeEvent``s.
///
/// ```swift
/// let images = try UpgradeImage.images(in: FirmwarePackage(contentsOf: "dfu_application.zip"))
/// let upgrade = FirmwareUpgrade(client: client, reconnect: { try await SMPConnection.open(connection) })
/// let report = try await upgrade.run(images)
/// ```
///
/// The same command run again after an interruption carries on: uploads resume from the device's
/// offset, and images already uploaded, marked or running are not touched again. Cancelling the
/// calling task stops at once and leaves the device in a state the next run continues from.
public actor FirmwareUpgrade {
    /// Opens a new connection to the device, for when the old link does not survive its reset.
    public typealias Reconnect = @Sendable () async throws -> SMPClient

    /// How the upgrade runs.
    public nonisolated let options: UpgradeOptions
    /// The connection in use (replaced when a reset needed a new one).
    public internal(set) var client: SMPClient

    let reconnect: Reconnect?
    let events: @Sendable (UpgradeEvent) -> Void
    var uploads: [UploadResult] = []
    /// Image numbers whose next upload starts from offset 0, clearing the device's upload state.
    var restartUploads: Set<Int> = []
    var ownedClients: [SMPClient] = []
    /// The SUIT upgrade under way (its package, and what its steps learned).
    var suitRun: SUITRun?
    /// The state ``inspect()`` read last.
    var lastState: UpgradeDeviceState?
    /// Whether the device refused a mark its unreported bootloader mode seemed to need.
    var marksRefused = false

    /// Creates an upgrade.
    ///
    /// - Parameters:
    ///   - client: the connection to the device.
    ///   - reconnect: opens a new connection when the old one failed across the device's reset
    ///     (nil: keep the old one, which is enough for UDP and for serial ports that re-appear).
    ///   - options: mode, upload options, timing.
    ///   - events: receives progress; called on the upgrade's executor, so keep it quick.
    public init(
        client: SMPClient, reconnect: Reconnect? = nil, options: UpgradeOptions = UpgradeOptions(),
        events: @escaping @Sendable (UpgradeEvent) -> Void = { _ in }
    ) {
        self.client = client
        self.reconnect = reconnect
        self.options = options
        self.events = events
    }

    /// Reads what the plan needs: MCUmgr parameters, bootloader name and mode, image list.
    public func inspect() async throws(UpgradeError) -> UpgradeDeviceState {
        let parameters = await client.parameters()
        let name = try await optional(OSBootloaderName(), stage: "read the bootloader's name")
        if name == "SUIT" {
            throw UpgradeError(stage: UpgradeError.planStage, underlying: UpgradePlanError.suitDevice, hint: UpgradePlanError.suitDevice.hint)
        }
        let mode = name == nil ? nil : try await optional(OSBootloaderMode(), stage: "read the bootloader's mode")
        let slots = try await listImages(stage: "read the image list")
        let server = try await recogniseServer(bootloaderName: name, slots: slots)
        let state = UpgradeDeviceState(
            parameters: parameters, bootloaderName: name ?? (server.isSerialRecovery ? "MCUboot" : nil), mode: mode?.mode ?? .unknown,
            noDowngrade: mode?.noDowngrade ?? false, slots: slots, server: server, refusesMarks: marksRefused)
        lastState = state
        events(.inspected(state))
        return state
    }

    /// Which server answers, from what ``inspect()`` read, asking more only when that does not decide.
    private func recogniseServer(bootloaderName: String?, slots: [ImageSlotState]) async throws(UpgradeError) -> ServerRecognition {
        if let bootloaderName {
            return ServerRecognition(role: .application, evidence: ["it reports its bootloader (\(bootloaderName))"])
        }
        do {
            return try await client.recogniseServer(knowing: ServerRecognition.Observations(answersBootloaderInfo: false, images: slots))
        } catch {
            throw UpgradeError(stage: "recognise the device's SMP server", underlying: error)
        }
    }

    /// Reads the device's state and plans the installation of `images` without changing anything.
    public func plan(_ images: [UpgradeImage]) async throws(UpgradeError) -> UpgradePlan {
        try await plan(images, uploadAgain: [])
    }

    /// Plans, uploading the images numbered in `uploadAgain` even when the device reports their hash.
    func plan(_ images: [UpgradeImage], uploadAgain: Set<Int>) async throws(UpgradeError) -> UpgradePlan {
        let state = try await inspect()
        do {
            let plan = try UpgradePlanner.plan(images: images, device: state, options: options, uploadAgain: uploadAgain)
            events(.planned(plan))
            return plan
        } catch {
            throw UpgradeError(stage: UpgradeError.planStage, underlying: error, hint: error.hint)
        }
    }

    /// Plans and installs `images`.
    public func run(_ images: [UpgradeImage]) async throws -> UpgradeReport {
        try await closingOwnedClients { try await install(images) }
    }

    /// Plans and runs the steps. The device cannot prove that a slot reporting an image's hash
    /// holds its bytes (it reports the TLV read from flash), so when an image whose upload was
    /// skipped for that reason is then refused or does not run after the reset, the upgrade says
    /// so, plans again with that image uploaded from offset 0, and runs the new plan, once.
    private func install(_ images: [UpgradeImage]) async throws -> UpgradeReport {
        let start = ContinuousClock.now
        var plan = try await plan(images)
        var resetList: [ImageSlotState] = []
        var records: [UpgradeReport.StepRecord] = []
        if plan.steps.first == .enterBootloader {
            // Into the bootloader, then plan again from what the recovery lists.
            let entering = Array(plan.steps.prefix { $0 == .enterBootloader || $0 == .waitForBootloader })
            records = try await runSteps(entering) { step in try await self.perform(step, resetList: &resetList) }
            plan = try await self.plan(images)
        }
        do {
            records += try await runSteps(plan.steps) { step in try await self.perform(step, resetList: &resetList) }
        } catch let error as UpgradeError where isRefusedMark(error) {
            marksRefused = true
            events(.note(
                "the device refused the \(error.step ?? "mark") (MGMT_ERR_ENOTSUP) and does not report its bootloader mode: its bootloader takes "
                    + "no marks (RAM load, DirectXIP without revert); carrying on without marks: reset, then check which image runs"))
            plan = try await self.plan(images)
            records += try await runSteps(plan.steps) { step in try await self.perform(step, resetList: &resetList) }
        } catch let error as UpgradeError where Self.isRefusedAtBoot(error) {
            let skipped = Set(plan.decisions.compactMap { decision -> Int? in
                if case .alreadyUploaded = decision.action { return decision.image.image }
                return nil
            })
            guard !skipped.isEmpty else { throw error }
            let numbers = skipped.sorted().map(String.init).joined(separator: ", ")
            events(.note(
                "image \(numbers): not running after the reset (\(error.underlying)); its upload was skipped because the device reported "
                    + "the same hash, which the device reads from the slot's TLV and cannot prove: uploading it again from offset 0"))
            restartUploads = skipped
            plan = try await self.plan(images, uploadAgain: skipped)
            records += try await runSteps(plan.steps) { step in try await self.perform(step, resetList: &resetList) }
        }
        let finalState = try await listImages(stage: "read the final image list")
        return UpgradeReport(plan: plan, steps: records, uploads: uploads, finalState: finalState, seconds: (ContinuousClock.now - start).seconds)
    }

    /// Whether `error` is a test or confirm mark refused as "not supported" by a device that does
    /// not report its bootloader mode (the plan assumed marks).
    private func isRefusedMark(_ error: UpgradeError) -> Bool {
        guard !marksRefused, lastState?.mode == .unknown, error.step == "test" || error.step == "confirm",
              let underlying = error.underlying as? SMPError
        else { return false }
        return SMPClient.isNotSupported(underlying)
    }

    /// Whether `error` is the check after the reset finding an image gone or not running.
    private static func isRefusedAtBoot(_ error: UpgradeError) -> Bool {
        error.underlying is UpgradeVerificationError && error.step == UpgradeStep.verifyRunning([]).name
    }

    // MARK: Helpers shared by the steps

    /// Runs `steps` in order with `perform`, reporting each; a failure names its step.
    func runSteps(_ steps: [UpgradeStep], perform: (UpgradeStep) async throws -> Void) async throws -> [UpgradeReport.StepRecord] {
        var records: [UpgradeReport.StepRecord] = []
        for (offset, step) in steps.enumerated() {
            try Task.checkCancellation()
            let stepStart = ContinuousClock.now
            events(.stepStarted(step, index: offset + 1, count: steps.count))
            do {
                try await perform(step)
            } catch let error as CancellationError {
                throw error
            } catch {
                if Task.isCancelled { throw CancellationError() }
                throw UpgradeError(stage: step.summary, step: step.name, underlying: error, hint: Self.hint(for: step, error: error))
            }
            let seconds = (ContinuousClock.now - stepStart).seconds
            records.append(UpgradeReport.StepRecord(step: step, seconds: seconds))
            events(.stepFinished(step, index: offset + 1, count: steps.count, seconds: seconds))
        }
        return records
    }

    /// Reads the image list, naming `stage` on failure.
    func listImages(stage: String) async throws(UpgradeError) -> [ImageSlotState] {
        do {
            return try await client.send(ImageState()).images
        } catch {
            throw UpgradeError(stage: stage, underlying: error)
        }
    }

    /// Sends a query that older devices may not implement: "not supported" gives nil.
    func optional<Command: SMPCommand>(_ command: Command, stage: String) async throws(UpgradeError) -> Command.Response? {
        do {
            return try await client.send(command)
        } catch {
            if case .device(let deviceError, _) = error, deviceError.legacyReturnCode == .notSupported { return nil }
            if case .invalidResponse = error { return nil }
            throw UpgradeError(stage: stage, underlying: error)
        }
    }

    /// Runs `body`, then closes the connections opened by ``reconnect`` (the caller closes its
    /// own), whether `body` failed or not.
    func closingOwnedClients<Result: Sendable>(_ body: () async throws -> Result) async throws -> Result {
        do {
            let result = try await body()
            await closeOwnedClients()
            return result
        } catch {
            await closeOwnedClients()
            throw error
        }
    }

    private func closeOwnedClients() async {
        let owned = ownedClients
        ownedClients = []
        for client in owned { await client.close() }
    }
}
