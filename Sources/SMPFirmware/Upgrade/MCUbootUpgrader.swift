import SMP

/// Installs MCUboot images (docs/protocol/upgrade.md §17): reads the device's state (parameters,
/// bootloader name and mode, image list, which server answers), plans with
/// ``MCUbootUpgradePlanner`` (swap, overwrite-only, DirectXIP with or without revert, RAM load,
/// serial recovery, the firmware loader, a mode inferred from the images), then runs the plan's steps.
///
/// The device cannot prove that a slot reporting an image's hash holds its bytes (it reports the
/// TLV read from flash), so when an image whose upload was skipped for that reason is then
/// refused or does not run after the reset, the upgrade says so, plans again with that image
/// uploaded from offset 0, and runs the new plan, once. A device that does not report its mode
/// and refuses a mark is planned again without marks; with `viaBootloader`, the plan is made
/// again once MCUboot's serial recovery answers, and in firmware-loader mode once the loader does.
public struct MCUbootUpgrader: FirmwareUpgrader {
    /// Image numbers the plan uploads even when the device reports their hash.
    var uploadAgain: Set<Int> = []
    /// Image numbers whose next upload starts from offset 0, clearing the device's upload state.
    var restartUploads: Set<Int> = []
    /// The state ``inspect(in:)`` read last.
    var lastState: MCUbootDeviceState?
    /// Whether the device refused a mark its unreported bootloader mode seemed to need.
    var marksRefused = false

    /// Creates an upgrader for MCUboot images.
    public init() {}

    /// Reads what the plan needs: MCUmgr parameters, bootloader name and mode, image list.
    public mutating func inspect(in upgrade: isolated FirmwareUpgrade) async throws(UpgradeError) -> MCUbootDeviceState {
        let parameters = await upgrade.client.parameters()
        let name = try await upgrade.optional(OSBootloaderName(), stage: "read the bootloader's name")
        if name == "SUIT" {
            throw UpgradeError(stage: UpgradeError.planStage, underlying: UpgradePlanError.suitDevice, hint: UpgradePlanError.suitDevice.hint)
        }
        let mode = name == nil ? nil : try await upgrade.optional(OSBootloaderMode(), stage: "read the bootloader's mode")
        let slots = try await upgrade.listImages(stage: "read the image list")
        let server = try await recogniseServer(bootloaderName: name, slots: slots, client: upgrade.client)
        let state = MCUbootDeviceState(
            parameters: parameters, bootloaderName: name ?? (server.isSerialRecovery ? "MCUboot" : nil), mode: mode?.mode ?? .unknown,
            noDowngrade: mode?.noDowngrade ?? false, slots: slots, server: server, refusesMarks: marksRefused)
        lastState = state
        return state
    }

    /// Which server answers, from what ``inspect(in:)`` read, asking more only when that does not decide.
    private func recogniseServer(
        bootloaderName: String?, slots: [ImageSlotState], client: SMPClient
    ) async throws(UpgradeError) -> ServerRecognition {
        if let bootloaderName {
            return ServerRecognition(role: .application, evidence: ["it reports its bootloader (\(bootloaderName))"])
        }
        do {
            return try await client.recogniseServer(knowing: ServerRecognition.Observations(answersBootloaderInfo: false, images: slots))
        } catch {
            throw UpgradeError(stage: "recognise the device's SMP server", underlying: error)
        }
    }

    /// The plan of ``MCUbootUpgradePlanner``.
    public func plan(_ images: [MCUbootUpgradeImage], device: MCUbootDeviceState, options: UpgradeOptions) throws(UpgradePlanError) -> MCUbootUpgradePlan {
        try MCUbootUpgradePlanner.plan(images: images, device: device, options: options, uploadAgain: uploadAgain)
    }

    /// Plans and runs the steps, planning again when the device refused a mark or did not boot
    /// an image whose upload was skipped.
    public mutating func install(_ images: [MCUbootUpgradeImage], in upgrade: isolated FirmwareUpgrade) async throws -> MCUbootUpgradeReport {
        let start = ContinuousClock.now
        var plan = try await plan(images, in: upgrade)
        var resetList: [ImageSlotState] = []
        var records: [UpgradeStepRecord] = []
        if plan.steps.first?.entersBootloader == true {
            // Into the bootloader (serial recovery or the firmware loader), then plan again from what it lists.
            let entering = Array(plan.steps.prefix(while: \.entersBootloader))
            records = try await run(entering, of: plan, in: upgrade, resetList: &resetList)
            plan = try await self.plan(images, in: upgrade)
        }
        do {
            records += try await run(plan.steps, of: plan, in: upgrade, resetList: &resetList)
        } catch let error as UpgradeError where isRefusedMark(error) {
            marksRefused = true
            upgrade.events(.note(
                "the device refused the \(error.step ?? "mark") (MGMT_ERR_ENOTSUP) and does not report its bootloader mode: its bootloader takes "
                    + "no marks (RAM load, DirectXIP without revert); carrying on without marks: reset, then check which image runs"))
            plan = try await self.plan(images, in: upgrade)
            records += try await run(plan.steps, of: plan, in: upgrade, resetList: &resetList)
        } catch let error as UpgradeError where Self.isRefusedAtBoot(error) {
            let skipped = Set(plan.decisions.compactMap { decision -> Int? in
                if case .alreadyUploaded = decision.action { return decision.image.image }
                return nil
            })
            guard !skipped.isEmpty else { throw error }
            let numbers = skipped.sorted().map(String.init).joined(separator: ", ")
            upgrade.events(.note(
                "image \(numbers): not running after the reset (\(error.underlying)); its upload was skipped because the device reported "
                    + "the same hash, which the device reads from the slot's TLV and cannot prove: uploading it again from offset 0"))
            restartUploads = skipped
            uploadAgain = skipped
            plan = try await self.plan(images, in: upgrade)
            records += try await run(plan.steps, of: plan, in: upgrade, resetList: &resetList)
        }
        let finalState = try await upgrade.listImages(stage: "read the final image list")
        return MCUbootUpgradeReport(
            plan: plan, steps: records, uploads: upgrade.uploads, finalState: finalState, seconds: (ContinuousClock.now - start).seconds)
    }

    /// Runs `steps` of `plan` through the upgrade's step loop.
    private mutating func run(
        _ steps: [MCUbootUpgradeStep], of plan: MCUbootUpgradePlan, in upgrade: isolated FirmwareUpgrade, resetList: inout [ImageSlotState]
    ) async throws -> [UpgradeStepRecord] {
        let installation = plan.installation
        let names = upgrade.options.settingNames
        return try await upgrade.runSteps(steps, advice: { Self.advice(for: $0, error: $1, installation: installation, naming: names) }) { step in
            try await self.perform(step, in: upgrade, resetList: &resetList)
        }
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
        error.underlying is UpgradeVerificationError && error.step == MCUbootUpgradeStep.verifyRunning([]).name
    }
}

extension FirmwareUpgrader where Self == MCUbootUpgrader {
    /// Installs MCUboot images: `upgrade.run(images, with: .mcuboot)`.
    public static var mcuboot: MCUbootUpgrader { MCUbootUpgrader() }
}
