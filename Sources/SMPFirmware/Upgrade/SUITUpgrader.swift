import SMP

/// Installs a SUIT envelope or package (docs/protocol/suit.md §14): reads every manifest role's state,
/// plans with ``SUITUpgradePlanner``, then runs the steps: caches, envelope, the resources the
/// device asks for, the restart, and the check of the manifest digest. Run again after an
/// interruption, it starts the envelope over (SUIT uploads do not resume across runs) and
/// finishes; a device that already reports the digest is left alone.
public struct SUITUpgrader: FirmwareUpgrader {
    /// The SUIT upgrade under way (its package, and what its steps learned).
    var suitRun: SUITRun?

    /// Creates an upgrader for SUIT envelopes and packages.
    public init() {}

    /// Reads what a SUIT plan needs: MCUmgr parameters, the bootloader's name, every manifest
    /// role's state. A device whose bootloader is not SUIT is refused before anything else.
    public mutating func inspect(in upgrade: isolated FirmwareUpgrade) async throws(UpgradeError) -> SUITDeviceState {
        let parameters = await upgrade.client.parameters()
        let name = try await upgrade.optional(OSBootloaderName(), stage: "read the bootloader's name")
        guard name == "SUIT" else {
            let error = UpgradePlanError.notSUITDevice(bootloader: name)
            throw UpgradeError(stage: UpgradeError.planStage, underlying: error, hint: error.hint)
        }
        let state: SUITDeviceState
        do {
            state = SUITDeviceState(parameters: parameters, bootloaderName: name, manifests: try await Self.readManifests(in: upgrade))
        } catch {
            throw UpgradeError(stage: "read the SUIT manifests", underlying: error)
        }
        return state
    }

    /// The plan of ``SUITUpgradePlanner``.
    public func plan(_ package: SUITUpgradePackage, device: SUITDeviceState, options: UpgradeOptions) throws(UpgradePlanError) -> SUITUpgradePlan {
        try SUITUpgradePlanner.plan(package: package, device: device, options: options)
    }

    /// Plans and runs the steps, then reads the manifests the device reports at the end.
    public mutating func install(_ package: SUITUpgradePackage, in upgrade: isolated FirmwareUpgrade) async throws -> SUITUpgradeReport {
        let start = ContinuousClock.now
        let plan = try await plan(package, in: upgrade)
        suitRun = SUITRun(package: package)
        let names = upgrade.options.settingNames
        let records = try await upgrade.runSteps(plan.steps, advice: { Self.advice(for: $0, error: $1, naming: names) }) { step in
            try await self.perform(step, in: upgrade)
        }
        let finalState: [SUITDeviceState.Manifest]
        do {
            finalState = try await Self.readManifests(in: upgrade)
        } catch {
            throw UpgradeError(stage: "read the final SUIT manifests", underlying: error)
        }
        return SUITUpgradeReport(
            plan: plan, steps: records, uploads: upgrade.uploads, resourcesServed: suitRun?.resourcesServed ?? [], finalState: finalState,
            seconds: (ContinuousClock.now - start).seconds)
    }

    /// Runs one SUIT step.
    private mutating func perform(_ step: SUITUpgradeStep, in upgrade: isolated FirmwareUpgrade) async throws {
        guard let run = suitRun else { throw UpgradeVerificationError("a SUIT step ran outside a SUIT upgrade") }
        switch step {
        case .uploadCache(let file, let partition, _, _):
            try await upload(file, kind: .cache(partition: UInt64(partition)), in: upgrade)
        case .uploadEnvelope(let file, let deferInstall):
            try await upload(file, kind: .envelope(deferInstall: deferInstall), in: upgrade)
        case .processEnvelope:
            try await upgrade.client.send(SUITProcessEnvelope())
        case .serveResources:
            try await serveResources(run.package, in: upgrade)
        case .waitForRestart:
            if suitRun?.sawInstalled == true {
                upgrade.events(.note("the device has installed the envelope and is running again"))
                return
            }
            if !(suitRun?.deviceWentSilent ?? false) {
                upgrade.events(.note("the device did not restart on its own; resetting it"))
                try await upgrade.reset()
            }
            try await upgrade.waitForDevice(sawSilence: suitRun?.deviceWentSilent ?? false, isChanged: Self.reportsInstalled(run.package.digest))
        case .verify(let digest, let sequence):
            try await verify(digest: digest, sequenceNumber: sequence, in: upgrade)
        }
    }

    private func upload(_ file: SUITUpgradeFile, kind: SUITUploadKind, in upgrade: isolated FirmwareUpgrade) async throws {
        let uploader = ChunkedUploader(client: upgrade.client, target: SUITUploadTarget(kind: kind), options: upgrade.options.upload)
        let events = upgrade.events
        let result = try await uploader.upload(file.bytes) { progress in events(.uploadProgress(file.upload, progress)) }
        upgrade.uploads.append(result)
    }

    /// Serves the resources the device asks for (``SUITResourceServer``).
    private mutating func serveResources(_ package: SUITUpgradePackage, in upgrade: isolated FirmwareUpgrade) async throws {
        let events = upgrade.events
        var server = SUITResourceServer(client: upgrade.client, package: package, options: upgrade.options)
        server.installed = Self.reportsInstalled(package.digest)
        let outcome = try await server.serve(
            requested: { events(.resourceRequested(Self.resourceRequest($0, file: $1))) }, progress: { events(.uploadProgress($0.upload, $1)) })
        upgrade.uploads += outcome.uploads
        suitRun?.resourcesServed += outcome.served
        suitRun?.deviceWentSilent = outcome.deviceWentSilent
        suitRun?.sawInstalled = outcome.sawInstalled
    }

    /// Whether a device reports a manifest with `digest`; nil when it does not answer.
    static func reportsInstalled(_ digest: [UInt8]) -> @Sendable (SMPClient) async -> Bool? {
        { client in
            await (try? SUITDeviceState.readManifests(from: client)).map { manifests in manifests.contains { $0.state.digest == digest } }
        }
    }

    private func verify(digest: [UInt8], sequenceNumber: UInt64?, in upgrade: isolated FirmwareUpgrade) async throws {
        let manifests = try await Self.readManifests(in: upgrade)
        guard let installed = manifests.first(where: { $0.state.digest == digest }) else {
            let reported = manifests.map { "\($0.role): \($0.state.digest.map { Hex.string($0).prefix(16) + "…" } ?? "no digest")" }
            throw UpgradeVerificationError(
                "no manifest reports the envelope's digest \(Hex.string(digest).prefix(16))…: the device did not install it (\(reported.joined(separator: ", ")))")
        }
        if let sequenceNumber, let reported = installed.state.sequenceNumber, reported != sequenceNumber {
            throw UpgradeVerificationError(
                "\(installed.role) reports the envelope's digest but sequence number \(reported), not \(sequenceNumber)")
        }
    }

    /// Every manifest role's state, through the connection in use.
    private static func readManifests(in upgrade: isolated FirmwareUpgrade) async throws(SMPError) -> [SUITDeviceState.Manifest] {
        try await SUITDeviceState.readManifests(from: upgrade.client)
    }

    /// What to suggest when a SUIT step failed with `error`.
    static func advice(for step: SUITUpgradeStep, error: any Error, naming names: UpgradeSettingNames = .library) -> UpgradeError.Advice {
        guard case .verify = step else { return UpgradeError.Advice(hint(for: step, error: error, naming: names)) }
        return UpgradeError.Advice(nextStep: .listSUITManifests)
    }

    private static func hint(for step: SUITUpgradeStep, error: any Error, naming names: UpgradeSettingNames) -> String? {
        switch step {
        case _ where error is SUITMissingResourceError:
            return "use the dfu_suit.zip the build made (it holds the envelope's resources), not the envelope alone"
        case .uploadEnvelope where error is SMPError:
            if case .device = error as? SMPError {
                return "the device refused the envelope: check that it was built and signed for this device"
            }
            return "run the same command again: it sends the envelope again and finishes"
        case .uploadCache, .uploadEnvelope, .processEnvelope, .serveResources:
            return "run the same command again: it sends the envelope again and finishes"
        case .waitForRestart:
            return "check that the device restarted (try a longer \(names.resetTimeout)), then run the same command again to finish"
        case .verify:
            return nil  // the next step says it (advice(for:error:naming:))
        }
    }

    /// The device's request for a resource, served from `file`.
    static func resourceRequest(_ request: SUITResourceRequest, file: SUITUpgradeFile) -> UpgradeResourceRequest {
        UpgradeResourceRequest(
            resource: request.resourceID, summary: "the device asks for \(request); sending \(file.summary)",
            fields: [
                UpgradeField("resource", .string(request.resourceID)), UpgradeField("session", .uint(request.sessionID)),
                UpgradeField("file", .string(file.fileName)), UpgradeField("size", .uint(UInt64(file.bytes.count))),
            ],
            upload: file.upload)
    }
}

extension FirmwareUpgrader where Self == SUITUpgrader {
    /// Installs a SUIT envelope or package: `upgrade.run(package, with: .suit)`.
    public static var suit: SUITUpgrader { SUITUpgrader() }
}
