import SMP

extension MCUbootUpgradePlanner {
    /// The plan for a device that MCUboot's serial recovery answers, or (`enterFirst`) for a
    /// running application that is first reset into it (`--via-bootloader`).
    ///
    /// The recovery writes the primary slot of the image number given with the upload; MCUboot
    /// boots it at the next reset without a mark (an image that does not validate is not
    /// booted). So the steps are: upload what slot 0 does not hold, reset, wait for the
    /// application, and check that it runs the new images. When entering the bootloader first,
    /// ``MCUbootUpgrader`` plans again once the recovery answers, from what it lists.
    static func recoveryPlan(
        images: [MCUbootUpgradeImage], device: MCUbootDeviceState, options: UpgradeOptions, uploadAgain: Set<Int>, enterFirst: Bool
    ) throws(UpgradePlanError) -> MCUbootUpgradePlan {
        var notes = [enterFirst
            ? "\(options.settingNames.viaBootloader): the application is reset into MCUboot's serial recovery (boot mode 1), which writes each image's primary slot; the plan is checked again once the recovery answers"
            : "MCUboot serial recovery answers (\(device.server.evidence.joined(separator: "; "))): it writes each image's primary slot, and MCUboot boots it at the next reset; nothing is marked"]
        var decisions: [MCUbootUpgradePlan.Decision] = []
        for number in installationOrder(images) {
            let variants = images.filter { $0.image == number }
            // The recovery writes slot 0: of a DirectXIP pair, the binary linked for it.
            let chosen = variants.first { $0.slot == 0 } ?? variants[0]
            let listed = device.slots(of: number)
            let holder = enterFirst ? device.activeSlot(of: number) : listed.first { $0.slot == 0 }
            try checkRecoveryVersion(chosen, listed: listed, notes: &notes)
            if holder?.hash == chosen.hash && !uploadAgain.contains(number) && !options.upload.restart {
                decisions.append(MCUbootUpgradePlan.Decision(
                    image: chosen, action: enterFirst ? .running(confirmed: holder?.confirmed ?? true) : .alreadyUploaded(slot: 0, pending: false, permanent: false),
                    reason: enterFirst ? "the device already runs it" : "not sent again: slot 0 holds it (the hash MCUboot reports); the reset boots it"))
            } else {
                decisions.append(MCUbootUpgradePlan.Decision(
                    image: chosen, action: .upload,
                    reason: "upload to slot 0 through MCUboot's serial recovery (it writes the primary slot directly)"))
            }
            decisions += variants.filter { $0 != chosen }.map {
                MCUbootUpgradePlan.Decision(image: $0, action: .otherSlotVariant, reason: "linked for slot \($0.slot.map(String.init) ?? "?"); serial recovery writes slot 0")
            }
        }
        func planned(_ steps: [MCUbootUpgradeStep]) -> MCUbootUpgradePlan {
            MCUbootUpgradePlan(
                mode: options.mode, installation: .serialRecovery, decisions: decisions, steps: steps, notes: notes,
                settingNames: options.settingNames)
        }
        let installing = decisions.filter { $0.action == .upload || $0.action == .alreadyUploaded(slot: 0, pending: false, permanent: false) }
        guard !installing.isEmpty else { return planned([]) }
        return planned(slotZeroSteps(
            entering: enterFirst ? [.enterBootloader, .waitForBootloader] : [], decisions: decisions, installing: installing, options: options,
            notes: &notes, untilReset: "the device stays in serial recovery until it is reset",
            unmarked: "serial recovery marks nothing; the image in slot 0 boots as it is"))
    }

    /// The steps of a bootloader that writes slot 0 itself (serial recovery, the firmware loader):
    /// `entering` it, each upload, the settings' erase, then (unless upload-only) the reset, the
    /// wait and the check of `installing`. `untilReset` and `unmarked` are the notes of
    /// upload-only and of a mode that would mark.
    static func slotZeroSteps(
        entering: [MCUbootUpgradeStep], decisions: [MCUbootUpgradePlan.Decision], installing: [MCUbootUpgradePlan.Decision],
        options: UpgradeOptions, notes: inout [String], untilReset: String, unmarked: String
    ) -> [MCUbootUpgradeStep] {
        var steps = entering
        let uploads = decisions.filter { $0.action == .upload }.map(\.image)
        for (index, image) in uploads.enumerated() { steps.append(.upload(image, number: index + 1, count: uploads.count)) }
        if options.eraseAppSettings { steps.append(.eraseAppSettings) }
        if options.mode == .uploadOnly {
            notes.append("upload-only: \(untilReset)")
            return steps
        }
        if options.mode != .testAndConfirm { notes.append("\(options.mode): \(unmarked)") }
        return steps + [.reset, .waitForDevice, .verifyRunning(installing.map(\.image))]
    }

    /// A RAM-load MCUboot boots the highest version of either slot: an image that is not newer
    /// than what slot 1 holds would be written but not run.
    private static func checkRecoveryVersion(_ image: MCUbootUpgradeImage, listed: [ImageSlotState], notes: inout [String]) throws(UpgradePlanError) {
        guard image.flags.contains(.ramLoad),
              let other = listed.first(where: { $0.slot == 1 && $0.hash != image.hash }),
              let version = MCUbootImageVersion(parsing: other.version), !image.version.isNewer(than: version)
        else { return }
        throw .notNewer(image: image, running: "\(other.version) in slot 1", reason: "a RAM-load MCUboot boots the slot with the highest version")
    }
}
