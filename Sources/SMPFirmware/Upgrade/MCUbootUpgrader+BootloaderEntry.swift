import SMP

extension MCUbootUpgrader {
    /// What answers after the reset into a bootloader, as far as its image list tells.
    enum AnsweringProgram {
        /// The program the reset was meant to start, with the evidence.
        case entered(evidence: String)
        /// The application.
        case application
        /// Cannot tell yet.
        case undecided
    }

    /// What to do when the application does not reset into MCUboot's firmware loader.
    static let firmwareLoaderEntryAdvice =
        "the application must reset into MCUboot's firmware loader on boot mode 1 (Zephyr 4.2 or later with "
        + "CONFIG_MCUMGR_GRP_OS_RESET_BOOT_MODE and CONFIG_RETENTION_BOOT_MODE; MCUboot with CONFIG_BOOT_FIRMWARE_LOADER_BOOT_MODE); "
        + "otherwise start the loader another way (a button: CONFIG_BOOT_FIRMWARE_LOADER_ENTRANCE_GPIO) and run the same command again: "
        + "it uploads through the loader directly"

    /// Waits until MCUboot's serial recovery answers after the application's reset into it.
    ///
    /// Fails when the device still (or again) answers as the application once the grace time has
    /// passed: its firmware or bootloader ignored boot mode 1. A device that stays silent is
    /// waited for up to the reset timeout (a USB device re-enumerates meanwhile).
    func waitForBootloader(changedFrom before: [ImageSlotState], in upgrade: isolated FirmwareUpgrade) async throws {
        let client = upgrade.client
        try await waitForEntry(
            into: "MCUboot serial recovery", ignoredBy: "its firmware or bootloader ignores boot mode 1", changedFrom: before, in: upgrade
        ) { images in
            guard let recognised = try? await client.recogniseServer(knowing: ServerRecognition.Observations(images: images)) else {
                return .undecided
            }
            return recognised.isSerialRecovery ? .entered(evidence: recognised.evidence.joined(separator: "; ")) : .application
        }
    }

    /// Waits until MCUboot's firmware loader answers after the application's reset into it: the
    /// image list shows image 0 running from slot 1, where MCUboot keeps the loader
    /// (``MCUbootDeviceState/runsFirmwareLoader``). Fails like ``waitForBootloader(changedFrom:in:)``.
    func waitForFirmwareLoader(changedFrom before: [ImageSlotState], in upgrade: isolated FirmwareUpgrade) async throws {
        try await waitForEntry(
            into: "MCUboot's firmware loader",
            ignoredBy: "its firmware or MCUboot ignores boot mode 1 (MCUboot needs CONFIG_BOOT_FIRMWARE_LOADER_BOOT_MODE)",
            changedFrom: before, in: upgrade
        ) { images in
            MCUbootDeviceState.listsFirmwareLoader(images)
                ? .entered(evidence: "image 0 runs from slot 1, the firmware loader's slot; slot 0 holds the application it writes")
                : .application
        }
    }

    /// Polls the device after a reset into `program` until `recognise` says it answers, the grace
    /// time has passed with the application still answering, or the reset timeout is over.
    private func waitForEntry(
        into program: String, ignoredBy cause: String, changedFrom before: [ImageSlotState], in upgrade: isolated FirmwareUpgrade,
        recognise: ([ImageSlotState]) async -> AnsweringProgram
    ) async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let options = upgrade.options
        if options.swapTime > .zero { try await Task.sleep(for: options.swapTime) }
        while true {
            if await upgrade.ping(), let images = try? await upgrade.client.send(ImageState()).images {
                let graceOver = clock.now >= start + options.resetGrace
                if images != before || graceOver {
                    switch await recognise(images) {
                    case .entered(let evidence):
                        upgrade.events(.note("\(program) answers: \(evidence)"))
                        return
                    case .application where graceOver:
                        throw UpgradeVerificationError(
                            "the device answers as the application \(options.resetGrace) after the reset into \(program): \(cause)")
                    case .application, .undecided:
                        break
                    }
                }
            }
            guard clock.now < start + options.resetTimeout else {
                throw UpgradeVerificationError("\(program) did not answer within \(options.resetTimeout) after the reset into it")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}
