import SMP

extension MCUbootUpgrader {
    /// Waits until MCUboot's serial recovery answers after the application's reset into it.
    ///
    /// Fails when the device still (or again) answers as the application once the grace time has
    /// passed: its firmware or bootloader ignored boot mode 1. A device that stays silent is
    /// waited for up to the reset timeout (a USB device re-enumerates meanwhile).
    func waitForBootloader(changedFrom before: [ImageSlotState], in upgrade: isolated FirmwareUpgrade) async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let options = upgrade.options
        if options.swapTime > .zero { try await Task.sleep(for: options.swapTime) }
        while true {
            if await upgrade.ping(), let images = try? await upgrade.client.send(ImageState()).images {
                let graceOver = clock.now >= start + options.resetGrace
                if images != before || graceOver,
                   let recognised = try? await upgrade.client.recogniseServer(knowing: ServerRecognition.Observations(images: images)) {
                    if recognised.isSerialRecovery {
                        upgrade.events(.note("MCUboot serial recovery answers: \(recognised.evidence.joined(separator: "; "))"))
                        return
                    }
                    if graceOver {
                        throw UpgradeVerificationError(
                            "the device answers as the application \(options.resetGrace) after the reset into the bootloader: "
                                + "its firmware or bootloader ignores boot mode 1")
                    }
                }
            }
            guard clock.now < start + options.resetTimeout else {
                throw UpgradeVerificationError("MCUboot serial recovery did not answer within \(options.resetTimeout) after the reset into the bootloader")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}
