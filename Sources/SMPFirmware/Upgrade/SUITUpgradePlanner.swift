import SMP

/// The SUIT planner: plans a SUIT upgrade from the package and the device's state, which
/// ``SUITUpgrader`` runs: pure, no I/O.
public enum SUITUpgradePlanner {
    /// The plan: nothing when a manifest already reports the envelope's digest; otherwise the
    /// caches first, the envelope (deferred when caches came first, then the trigger), the
    /// resources the device asks for, the restart and the check.
    public static func plan(package: SUITUpgradePackage, device: SUITDeviceState, options: UpgradeOptions) throws(UpgradePlanError) -> SUITUpgradePlan {
        guard device.bootloaderName == "SUIT" else { throw .notSUITDevice(bootloader: device.bootloaderName) }
        var notes: [String] = []
        if options.mode != .testAndConfirm {
            notes.append("\(options.settingNames.mode(options.mode)) does not apply to SUIT: the device installs the envelope itself")
        }
        let sequence = package.envelope.sequenceNumber
        if let installed = device.manifest(withDigest: package.digest) {
            return SUITUpgradePlan(
                envelopeFileName: package.envelopeFile.fileName, digest: package.digest, sequenceNumber: sequence,
                installedAs: installed.role, steps: [], notes: notes)
        }
        var steps: [SUITUpgradeStep] = package.caches.enumerated().map { index, cache in
            .uploadCache(cache.file, partition: cache.partition, number: index + 1, count: package.caches.count)
        }
        let deferInstall = !package.caches.isEmpty
        steps.append(.uploadEnvelope(package.envelopeFile, deferInstall: deferInstall))
        if deferInstall { steps.append(.processEnvelope) }
        steps += [.serveResources, .waitForRestart, .verify(digest: package.digest, sequenceNumber: sequence)]
        if package.resources.isEmpty && package.caches.isEmpty {
            notes.append("the envelope comes alone: a resource the device asks for cannot be served (use the dfu_suit.zip)")
        }
        return SUITUpgradePlan(
            envelopeFileName: package.envelopeFile.fileName, digest: package.digest, sequenceNumber: sequence, installedAs: nil,
            steps: steps, notes: notes)
    }
}
