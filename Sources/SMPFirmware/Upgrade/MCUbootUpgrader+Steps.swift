import SMP

extension MCUbootUpgrader {
    /// Runs one step. `resetList` carries the image list read just before the reset to the wait
    /// that follows it.
    mutating func perform(_ step: MCUbootUpgradeStep, in upgrade: isolated FirmwareUpgrade, resetList: inout [ImageSlotState]) async throws {
        switch step {
        case .confirmRunning(let image):
            let running = try await upgrade.listImages(stage: step.summary).first { $0.image == UInt64(image) && $0.active }
            upgrade.knownImages = nil
            upgrade.knownImages = try await upgrade.client.send(ImageConfirm(hash: running?.hash)).images
        case .upload(let image, _, _):
            guard let upgradeUpload = step.upload else { return }
            upgrade.knownImages = nil
            try await upload(image, as: upgradeUpload, in: upgrade)
        case .eraseAppSettings:
            try await eraseAppSettings(in: upgrade)
        case .test(let image):
            try await mark(image, confirm: false, in: upgrade)
        case .confirm(let image):
            try await mark(image, confirm: true, in: upgrade)
        case .enterBootloader, .enterFirmwareLoader:
            resetList = try await upgrade.listImages(stage: step.summary)
            try await upgrade.reset(bootMode: OSReset.bootloaderBootMode)
        case .waitForBootloader:
            try await waitForBootloader(changedFrom: resetList, in: upgrade)
        case .waitForFirmwareLoader:
            try await waitForFirmwareLoader(changedFrom: resetList, in: upgrade)
        case .reset:
            resetList = try await upgrade.listImages(stage: step.summary)
            try await upgrade.reset()
        case .waitForDevice:
            try await upgrade.waitForDevice(changedFrom: resetList)
        case .verifyRunning(let images):
            try await verify(images, confirmed: false, in: upgrade)
        case .verifyConfirmed(let images):
            try await verify(images, confirmed: true, in: upgrade)
        }
    }

    private mutating func upload(_ image: MCUbootUpgradeImage, as upgradeUpload: UpgradeUpload, in upgrade: isolated FirmwareUpgrade) async throws {
        let target = ImageUploadTarget(image: UInt64(image.image), upgrade: upgrade.options.refuseOlder)
        var uploadOptions = upgrade.options.upload
        if restartUploads.remove(image.image) != nil { uploadOptions.restart = true }
        // A `match: false` uploads once more from offset 0 before the upgrade fails.
        let upload = ImageUpload(client: upgrade.client, target: target, options: uploadOptions)
        let events = upgrade.events
        let result = try await upload.upload(from: image.bytes, sha: SHA256Hash.digest(image.bytes), imageHash: image.hash) { progress in
            events(.uploadProgress(upgradeUpload, progress))
        }
        upgrade.uploads.append(result.upload)
    }

    /// Marks an image for test or confirms it. State writes are never resent blindly: when the
    /// answer is lost, the list shows whether the mark took, and only if not is it sent once more.
    /// The device's answer (its image list) becomes ``FirmwareUpgrade/knownImages``.
    private func mark(_ image: MCUbootUpgradeImage, confirm: Bool, in upgrade: isolated FirmwareUpgrade) async throws {
        let client = upgrade.client
        upgrade.knownImages = nil
        func send() async throws(SMPError) -> [ImageSlotState] {
            if confirm {
                return try await client.send(ImageConfirm(hash: image.hash)).images
            } else {
                return try await client.send(ImageTest(hash: image.hash)).images
            }
        }
        do {
            upgrade.knownImages = try await send()
        } catch {
            guard case .timeout = error else { throw error }
            let listed = try await upgrade.listImages(stage: "check the mark").first { $0.image == UInt64(image.image) && $0.hash == image.hash }
            let took = confirm ? (listed?.permanent == true || (listed?.active == true && listed?.confirmed == true)) : listed?.pending == true
            if took {
                upgrade.events(.note("the answer to the \(confirm ? "confirm" : "test") of image \(image.image) was lost, but the device took it"))
                return
            }
            upgrade.knownImages = try await send()
        }
    }

    /// Erases the settings; a device without the Zephyr basic group, or one that never answers
    /// (some reset their storage driver), gets a note, not a failure.
    private func eraseAppSettings(in upgrade: isolated FirmwareUpgrade) async throws {
        do {
            try await upgrade.client.send(ZephyrBasicEraseStorage())
        } catch {
            switch error {
            case .device(let deviceError, _) where deviceError.legacyReturnCode == .notSupported:
                upgrade.events(.note("the device does not implement erase storage (Zephyr basic group 63); its settings were kept"))
            case .timeout:
                upgrade.events(.note("the device did not answer erase storage; carrying on"))
            default:
                throw error
            }
        }
    }

    /// Checks that each image runs (and is confirmed, with `confirmed`). A network core image is
    /// copied to the other core and may no longer be listed: that is noted, not failed.
    private func verify(_ images: [MCUbootUpgradeImage], confirmed: Bool, in upgrade: isolated FirmwareUpgrade) async throws {
        let slots = try await upgrade.listImages(stage: confirmed ? "verify-confirmed" : "verify-running")
        if !slots.isEmpty && !slots.contains(where: \.active) {
            throw UpgradeVerificationError(
                "the device answers as MCUboot's serial recovery again after the reset: the bootloader did not start the application: "
                    + "it found no valid image in slot 0 (\(Self.refusalCauses(images))), "
                    + "or something keeps it in recovery (a held button or pin, or the boot mode)")
        }
        for image in images {
            let listed = slots.filter { $0.image == UInt64(image.image) }
            guard let entry = listed.first(where: { $0.hash == image.hash }) else {
                if image.target == .networkCore {
                    upgrade.events(.note("image \(image.image) (network core) is no longer listed: it was copied to the network core"))
                    continue
                }
                let running = listed.first { $0.active }.map { "version \($0.version) in slot \($0.slot)" } ?? "no image"
                throw UpgradeVerificationError(
                    "image \(image.image): the device runs \(running), and \(image.version) is gone: MCUboot refused it (\(Self.refusalCauses([image])))")
            }
            guard entry.active else {
                let running = listed.first { $0.active }.map { "version \($0.version) in slot \($0.slot)" } ?? "no image"
                throw UpgradeVerificationError(
                    "image \(image.image): the device still runs \(running); \(image.version) sits in slot \(entry.slot) (MCUboot reverted it, or did not boot it)")
            }
            if confirmed && !entry.confirmed {
                throw UpgradeVerificationError("image \(image.image): \(image.version) runs but is not confirmed")
            }
        }
    }

    /// Why MCUboot does not boot `images`, as far as their headers tell: for RAM-load images,
    /// their load address may also lie outside the RAM it loads into.
    private static func refusalCauses(_ images: [MCUbootUpgradeImage]) -> String {
        let loadAddresses = images.filter { $0.flags.contains(.ramLoad) }.map { MCUbootHex.literal($0.loadAddress, width: 8) }
        var causes = ["a signature or key mismatch", "downgrade prevention"]
        if !loadAddresses.isEmpty { causes.append("a load address (\(loadAddresses.joined(separator: ", "))) outside the RAM MCUboot loads into") }
        return causes.dropLast().joined(separator: ", ") + ", or " + causes[causes.count - 1]
    }

    /// What to suggest when `step` failed with `error`, for a plan that installs as `installation`.
    static func advice(
        for step: MCUbootUpgradeStep, error: any Error, installation: MCUbootUpgradePlan.Installation,
        naming names: UpgradeSettingNames = .library
    ) -> UpgradeError.Advice {
        let noFreeSlot: Bool = {
            guard case .device(.groupError(.image(.noFreeSlot)), _) = error as? SMPError else { return false }
            return true
        }()
        switch step {
        case .enterFirmwareLoader, .waitForFirmwareLoader:
            return UpgradeError.Advice(firmwareLoaderEntryAdvice)
        case .upload where noFreeSlot:
            return UpgradeError.Advice("the upload slot is in use (a pending or revert image)", nextStep: .freeUploadSlot)
        case .upload where error is TransferVerificationError:
            // Uploaded again from offset 0 already: the error's own hint says what is wrong.
            return UpgradeError.Advice()
        case .upload where installation == .serialRecovery:
            return UpgradeError.Advice(ImageUpload.interruptedRecoveryUpload)
        case .upload, .eraseAppSettings, .test, .confirm, .confirmRunning:
            return UpgradeError.Advice("run the same command again: it continues where this one stopped")
        case .enterBootloader, .waitForBootloader:
            return UpgradeError.Advice("the application must reset into MCUboot's serial recovery on boot mode 1 (Zephyr 4.2 or later with "
                + "CONFIG_MCUMGR_GRP_OS_RESET_BOOT_MODE and CONFIG_RETENTION_BOOT_MODE; MCUboot with CONFIG_BOOT_SERIAL_BOOT_MODE); "
                + "otherwise start the recovery another way (a button: CONFIG_BOOT_SERIAL_ENTRANCE_GPIO) and run the command without \(names.viaBootloader)")
        case .reset, .waitForDevice:
            return UpgradeError.Advice("check that the device restarted (it may still be swapping: try a longer \(names.resetTimeout)), then run the same command again to finish")
        case .verifyRunning, .verifyConfirmed:
            return UpgradeError.Advice(nextStep: .listImages)
        }
    }
}
