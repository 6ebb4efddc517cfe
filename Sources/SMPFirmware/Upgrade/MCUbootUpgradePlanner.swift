import SMP

/// The MCUboot planner: turns a package and the device's state into an ``MCUbootUpgradePlan`` (docs/protocol/upgrade.md §17),
/// which ``MCUbootUpgrader`` runs: pure, no I/O. Every bootloader mode plugs in here:
///
/// - Images the device runs are skipped; images already in the other slot are not uploaded again
///   (only marked, if still needed).
/// - A device running an unconfirmed test image first confirms it (its revert target occupies
///   the slot the upload needs); a different pending image in the other slot is replaced.
/// - DirectXIP: of the two binaries of an image, the one linked for the inactive slot is uploaded.
/// - The bootloader mode decides how images are marked: swap modes test or confirm per the
///   upgrade mode; overwrite-only always confirms (there is no revert); DirectXIP without revert
///   and RAM load mark nothing (the newest image boots).
/// - Firmware-loader mode: the application is reset into MCUboot's firmware loader, which writes
///   the application's only slot (``firmwareLoaderPlan(images:device:options:uploadAgain:)``).
/// - A network core image is uploaded before the application and confirmed rather than tested:
///   it is installed by copying, with no revert.
/// - A device whose mode is not reported is planned by the mode its images' headers imply
///   (``inferredMode(device:images:notes:)``); one that refused a mark gets none.
/// - MCUboot's serial recovery (or `viaBootloader`) is planned by ``recoveryPlan(images:device:options:uploadAgain:enterFirst:)``.
public enum MCUbootUpgradePlanner {
    /// How the device's bootloader lets images be marked.
    enum Marking: Equatable {
        /// test and confirm, with revert.
        case revertible
        /// Any mark is a one-way copy: confirm.
        case oneWay
        /// No marking: the newest image boots.
        case none
    }

    /// Plans the upgrade of `images` on a device in `device`'s state.
    ///
    /// An image whose hash the device reports for its free slot is not uploaded again. The device
    /// reports the SHA-256 TLV it reads from the slot (Zephyr's img_mgmt does not hash the slot's
    /// content), and ``MCUbootUpgradeImage`` carries the hash computed from the file's bytes; so the skip
    /// is proven only when MCUboot boots the slot: ``MCUbootUpgrader`` uploads the image again from
    /// offset 0 when it does not. `uploadAgain` names the image numbers for which that happens:
    /// they are uploaded even when the device reports their hash, as every image is with the
    /// upload option `restart` (`--restart`).
    public static func plan(
        images: [MCUbootUpgradeImage], device: MCUbootDeviceState, options: UpgradeOptions, uploadAgain: Set<Int> = []
    ) throws(UpgradePlanError) -> MCUbootUpgradePlan {
        if device.mode == .firmwareLoader {
            return try firmwareLoaderPlan(images: images, device: device, options: options, uploadAgain: uploadAgain)
        }
        if device.server.isSerialRecovery || options.viaBootloader {
            return try recoveryPlan(
                images: images, device: device, options: options, uploadAgain: uploadAgain, enterFirst: !device.server.isSerialRecovery)
        }
        if device.mode == .singleSlot || device.mode == .singleSlotRAMLoad { throw .singleSlot(device.mode) }
        guard !device.slots.isEmpty else { throw .noImagesListed }
        var notes: [String] = []
        var device = device
        let reportedMode = device.mode
        device.mode = inferredMode(device: device, images: images, notes: &notes)
        let marking: Marking
        if device.refusesMarks {
            notes.append("the device refused to mark an image (MGMT_ERR_ENOTSUP): its bootloader takes no marks (RAM load, DirectXIP without revert); the newest image boots after the reset")
            marking = .none
        } else {
            marking = self.marking(for: device.mode, notes: &notes)
        }
        if marking == .none && options.mode != .uploadOnly && !device.refusesMarks && device.mode == reportedMode {
            notes.append("\(device.mode.name): the bootloader boots the newest image; nothing is marked for test or confirm")
        }
        var decisions: [MCUbootUpgradePlan.Decision] = []
        var confirmFirst: [Int] = []
        for number in installationOrder(images) {
            let variants = images.filter { $0.image == number }
            let decided = try decide(
                variants, device: device, marking: marking, options: options, uploadAgain: uploadAgain.contains(number), notes: &notes)
            decisions += decided.decisions
            if decided.confirmRunningFirst { confirmFirst.append(number) }
        }
        let steps = try steps(decisions, confirmFirst: confirmFirst, marking: marking, options: options, notes: &notes)
        return MCUbootUpgradePlan(
            mode: options.mode, installation: marking == .none ? .newestBoots : .marked, decisions: decisions, steps: steps, notes: notes,
            settingNames: options.settingNames)
    }

    static func marking(for mode: MCUbootMode, notes: inout [String]) -> Marking {
        if mode.supportsRevert { return .revertible }
        switch mode {
        case .overwriteOnly: return .oneWay
        case .directXIP, .ramLoad: return .none
        default:
            notes.append("the device did not report a known MCUboot mode (\(mode)); assuming a swap mode with test, confirm and revert (if it refuses the test mark, it is upgraded without marks)")
            return .revertible
        }
    }

    /// Image numbers, network core images first, then by number.
    static func installationOrder(_ images: [MCUbootUpgradeImage]) -> [Int] {
        var seen = Set<Int>()
        let ordered = images.sorted { ($0.target == .networkCore ? 0 : 1, $0.image) < ($1.target == .networkCore ? 0 : 1, $1.image) }
        return ordered.compactMap { seen.insert($0.image).inserted ? $0.image : nil }
    }

    /// The decisions for the variants (one binary, or a DirectXIP pair) of one image number.
    private static func decide(
        _ variants: [MCUbootUpgradeImage], device: MCUbootDeviceState, marking: Marking, options: UpgradeOptions, uploadAgain: Bool,
        notes: inout [String]
    ) throws(UpgradePlanError) -> (decisions: [MCUbootUpgradePlan.Decision], confirmRunningFirst: Bool) {
        let number = variants[0].image
        let listed = device.slots(of: number)
        guard let active = device.activeSlot(of: number) else {
            let numbers = Array(Set(device.slots.map { Int($0.image) })).sorted()
            throw .unknownImage(image: number, fileName: variants[0].fileName, listed: numbers)
        }
        // A variant the device runs or holds ends the matter for the whole image number.
        for variant in variants {
            if active.hash == variant.hash {
                let others = variants.filter { $0 != variant }.map { skipped($0) }
                return ([MCUbootUpgradePlan.Decision(
                    image: variant, action: .running(confirmed: active.confirmed),
                    reason: "the device already runs it (slot \(active.slot)\(active.confirmed ? ", confirmed" : ", not confirmed yet"))")] + others, false)
            }
        }
        let chosen = variants.count > 1 ? variants.first { $0.slot != Int(active.slot) } ?? variants[0] : variants[0]
        let others = variants.filter { $0 != chosen }.map { skipped($0) }
        let held = listed.first { $0.slot != active.slot && $0.hash == chosen.hash }
        if let held, !uploadAgain && !options.upload.restart {
            let state = held.permanent ? "marked permanent" : held.pending ? "marked for test" : "not marked"
            // Without a reset the skip is not proven at boot: say how to send it anyway.
            let proof = options.mode == .uploadOnly
                ? "the device reads that hash from the slot's TLV, so \(options.settingNames.restart) sends the file again if in doubt"
                : "if MCUboot does not boot it, it is uploaded again from offset 0"
            return ([MCUbootUpgradePlan.Decision(
                image: chosen, action: .alreadyUploaded(slot: held.slot, pending: held.pending, permanent: held.permanent),
                reason: "not sent again: the device reports the same hash for slot \(held.slot) (\(state)); \(proof)")] + others, false)
        }
        if let held {
            notes.append(uploadAgain
                ? "image \(number): slot \(held.slot) reports the file's hash, but MCUboot did not boot what it holds; it is uploaded again from offset 0"
                : "image \(number): slot \(held.slot) reports the file's hash; \(options.settingNames.restart) sends it again from offset 0")
        }
        let runningVersion = MCUbootImageVersion(parsing: active.version)
        if let runningVersion, !chosen.version.isNewer(than: runningVersion) {
            if marking == .none {
                throw .notNewer(image: chosen, running: active.version, reason: "\(device.mode.name) boots the slot with the highest version")
            } else if device.noDowngrade {
                throw .notNewer(image: chosen, running: active.version, reason: "the bootloader refuses downgrades (no-downgrade)")
            } else if options.refuseOlder {
                throw .notNewer(image: chosen, running: active.version, reason: "\(options.settingNames.refuseOlder) asks the device to refuse it")
            }
        }
        var confirmFirst = false
        if let other = listed.first(where: { $0.slot != active.slot }) {
            if marking == .revertible && !active.confirmed && other.confirmed {
                confirmFirst = true
                notes.append("image \(number) runs an unconfirmed test image (\(active.version)); it is confirmed first, so that its revert target (\(other.version)) may be overwritten")
            } else if other.pending {
                notes.append("image \(number): the upload replaces the image \(other.version) that an earlier attempt left pending in slot \(other.slot)")
            }
        }
        let target = variants.count > 1 ? "the binary linked for slot \(chosen.slot.map(String.init) ?? "?") (slot \(active.slot) runs)" : "to the free slot"
        let again = held == nil ? "" : uploadAgain ? " again from offset 0 (the copy reporting the same hash did not boot)" : " again from offset 0 (\(options.settingNames.restart))"
        return ([MCUbootUpgradePlan.Decision(image: chosen, action: .upload, reason: "upload \(target)\(again)")] + others, confirmFirst)
    }

    private static func skipped(_ variant: MCUbootUpgradeImage) -> MCUbootUpgradePlan.Decision {
        MCUbootUpgradePlan.Decision(image: variant, action: .otherSlotVariant, reason: "linked for the slot that runs; not needed")
    }

    /// The steps for the decisions.
    private static func steps(
        _ decisions: [MCUbootUpgradePlan.Decision], confirmFirst: [Int], marking: Marking, options: UpgradeOptions, notes: inout [String]
    ) throws(UpgradePlanError) -> [MCUbootUpgradeStep] {
        var steps: [MCUbootUpgradeStep] = confirmFirst.map { .confirmRunning(image: $0) }
        let uploads = decisions.filter { $0.action == .upload }.map(\.image)
        for (index, image) in uploads.enumerated() { steps.append(.upload(image, number: index + 1, count: uploads.count)) }
        if options.eraseAppSettings { steps.append(.eraseAppSettings) }
        if options.mode == .uploadOnly { return steps }

        var installing: [MCUbootUpgradeImage] = []
        var confirmAfterReset: [MCUbootUpgradeImage] = []
        var unconfirmedRunning: [MCUbootUpgradeImage] = []
        for decision in decisions {
            let image = decision.image
            var alreadyMarked = false
            var permanent = false
            switch decision.action {
            case .otherSlotVariant:
                continue
            case .running(let confirmed):
                if !confirmed && marking == .revertible && (options.mode == .testAndConfirm || options.mode == .confirmOnly) {
                    unconfirmedRunning.append(image)
                }
                continue
            case .upload:
                break
            case .alreadyUploaded(_, let pending, let isPermanent):
                if isPermanent && options.mode == .testOnly && marking == .revertible { throw .alreadyPermanent(image: image) }
                alreadyMarked = pending
                permanent = isPermanent
            }
            let wanted = mark(for: image, marking: marking, mode: options.mode, notes: &notes)
            if !alreadyMarked, let wanted { steps.append(wanted == .confirm ? .confirm(image) : .test(image)) }
            installing.append(image)
            // Confirm after the reset what runs on test: marked so now, or left marked so by an
            // earlier attempt when the mode asks for a confirmed image.
            let onTest = alreadyMarked ? !permanent : wanted == .test
            if onTest && marking == .revertible && (options.mode == .testAndConfirm || options.mode == .confirmOnly) {
                confirmAfterReset.append(image)
            }
        }
        if installing.isEmpty {
            steps += unconfirmedRunning.map { .confirm($0) }
            if !unconfirmedRunning.isEmpty { steps.append(.verifyConfirmed(unconfirmedRunning)) }
            return steps
        }
        steps += [.reset, .waitForDevice, .verifyRunning(installing)]
        let confirming = confirmAfterReset + unconfirmedRunning
        steps += confirming.map { .confirm($0) }
        if !confirming.isEmpty { steps.append(.verifyConfirmed(confirming)) }
        if options.mode == .testOnly && marking == .revertible {
            notes.append("test-only: the new firmware must confirm itself, or the next reset reverts it")
        }
        return steps
    }

    /// The mark an image needs before the reset, if any.
    private enum Mark { case test, confirm }

    private static func mark(for image: MCUbootUpgradeImage, marking: Marking, mode: UpgradeMode, notes: inout [String]) -> Mark? {
        switch (marking, mode) {
        case (_, .uploadOnly), (.none, _): return nil
        case (.oneWay, _): return .confirm
        case (.revertible, .confirmOnly): return .confirm
        case (.revertible, _) where image.target == .networkCore:
            notes.append("image \(image.image) (network core) is confirmed rather than tested: it is installed by copying, with no revert")
            return .confirm
        case (.revertible, _): return .test
        }
    }
}
