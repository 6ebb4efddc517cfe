import SMP

extension MCUbootUpgradePlanner {
    /// The plan for MCUboot's firmware-loader mode (mode 7; `CONFIG_BOOT_FIRMWARE_LOADER` in
    /// MCUboot, `CONFIG_MCUBOOT_BOOTLOADER_MODE_FIRMWARE_UPDATER` in Zephyr).
    ///
    /// The application has one slot (image 0, slot 0) and takes no upload: Zephyr's img_mgmt
    /// lists only that slot and finds no free slot to write. Updates go through the firmware
    /// loader, a separate image in slot 1 that MCUboot starts on boot mode 1 (or a button, a pin
    /// reset, or no valid application) and that writes slot 0; the next reset starts the
    /// application from it, without a mark. So from the application the steps are: reset into
    /// the loader, wait for it (``MCUbootUpgrader`` plans again from what it lists), upload,
    /// reset, wait for the application and check that it runs the new image. When the loader
    /// already answers (``MCUbootDeviceState/runsFirmwareLoader``), the plan starts at the upload.
    static func firmwareLoaderPlan(
        images: [MCUbootUpgradeImage], device: MCUbootDeviceState, options: UpgradeOptions, uploadAgain: Set<Int>
    ) throws(UpgradePlanError) -> MCUbootUpgradePlan {
        if let other = images.first(where: { $0.image != 0 }) {
            throw .unknownImage(image: other.image, fileName: other.fileName, listed: [0])
        }
        let inLoader = device.runsFirmwareLoader
        var notes: [String] = []
        // The loader writes slot 0: of a DirectXIP pair, the binary linked for it.
        guard let chosen = images.first(where: { $0.slot == 0 }) ?? images.first else {
            return MCUbootUpgradePlan(
                mode: options.mode, installation: .firmwareLoader, decisions: [], steps: [], notes: notes, settingNames: options.settingNames)
        }
        let application = device.slots(of: 0).first { $0.slot == 0 }
        var decisions: [MCUbootUpgradePlan.Decision] = []
        if let application, application.hash == chosen.hash && !uploadAgain.contains(0) && !options.upload.restart {
            decisions.append(MCUbootUpgradePlan.Decision(
                image: chosen, action: inLoader ? .alreadyUploaded(slot: 0, pending: false, permanent: false) : .running(confirmed: true),
                reason: inLoader ? "not sent again: slot 0 holds it (the hash the loader reports); the reset starts it" : "the device already runs it"))
        } else {
            decisions.append(MCUbootUpgradePlan.Decision(
                image: chosen, action: .upload, reason: "upload to slot 0, the application's only slot, through MCUboot's firmware loader"))
        }
        decisions += images.filter { $0 != chosen }.map {
            MCUbootUpgradePlan.Decision(image: $0, action: .otherSlotVariant, reason: "linked for slot \($0.slot.map(String.init) ?? "?"); the firmware loader writes slot 0")
        }
        func planned(_ steps: [MCUbootUpgradeStep]) -> MCUbootUpgradePlan {
            MCUbootUpgradePlan(
                mode: options.mode, installation: .firmwareLoader, decisions: decisions, steps: steps, notes: notes, settingNames: options.settingNames)
        }
        let installing = decisions.filter { $0.action == .upload || $0.action == .alreadyUploaded(slot: 0, pending: false, permanent: false) }
        guard !installing.isEmpty else { return planned([]) }
        // Said only when something is installed: "nothing to do" needs no route.
        notes.append(inLoader
            ? "firmware-loader: MCUboot's firmware loader answers (it runs from slot 1); it writes the application's slot 0, and the reset starts the application from it; nothing is marked"
            : "firmware-loader: the application has one slot and takes no upload; it is reset into MCUboot's firmware loader (boot mode 1), which writes the application's slot 0; the plan is checked again once the loader answers; nothing is marked")
        if options.viaBootloader && !inLoader {
            notes.append("\(options.settingNames.viaBootloader): MCUboot in firmware-loader mode has no serial recovery; its firmware loader is the bootloader entered")
        }
        return planned(slotZeroSteps(
            entering: inLoader ? [] : [.enterFirmwareLoader, .waitForFirmwareLoader], decisions: decisions, installing: installing,
            options: options, notes: &notes,
            untilReset: "the firmware loader keeps running until the device is reset; the reset starts the application from slot 0",
            unmarked: "the firmware loader marks nothing; MCUboot starts the application in slot 0 as it is"))
    }
}
