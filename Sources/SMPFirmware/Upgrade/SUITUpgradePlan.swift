import SMP

/// What a SUIT upgrade will do: the envelope, whether the device already has it, and the steps.
public struct SUITUpgradePlan: Sendable, Equatable {
    /// The envelope's file name.
    public var envelopeFileName: String
    /// The envelope's manifest digest.
    public var digest: [UInt8]
    /// The envelope's sequence number, when its manifest has one.
    public var sequenceNumber: UInt64?
    /// The role that already reports the envelope's digest (nothing to do), if any.
    public var installedAs: SUITManifestRole?
    /// The steps, in order; empty when the device already has the envelope.
    public var steps: [SUITUpgradeStep]
    /// Things the user should know.
    public var notes: [String]

    /// Whether the device already has the envelope installed.
    public var isNothingToDo: Bool { steps.isEmpty }
}

/// Plans a SUIT upgrade from the package and the device's state: pure, no I/O.
public enum SUITUpgradePlanner {
    /// The plan: nothing when a manifest already reports the envelope's digest; otherwise the
    /// caches first, the envelope (deferred when caches came first, then the trigger), the
    /// resources the device asks for, the restart and the check.
    public static func plan(package: SUITUpgradePackage, device: SUITDeviceState, options: UpgradeOptions) throws(UpgradePlanError) -> SUITUpgradePlan {
        guard device.bootloaderName == "SUIT" else { throw .notSUITDevice(bootloader: device.bootloaderName) }
        var notes: [String] = []
        if options.mode != .testAndConfirm {
            notes.append("--mode \(options.mode.rawValue) does not apply to SUIT: the device installs the envelope itself")
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
