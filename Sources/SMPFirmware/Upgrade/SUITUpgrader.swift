import SMP

/// A SUIT upgrade under way: its package, and whether the device already went silent (it
/// restarts on its own once it has installed the envelope).
struct SUITRun: Sendable {
    var package: SUITUpgradePackage
    var deviceWentSilent = false
    /// The device reported the envelope installed while resources were served.
    var sawInstalled = false
    var resourcesServed: [String] = []
}

extension FirmwareUpgrade {
    /// Reads what a SUIT plan needs: MCUmgr parameters, the bootloader's name, every manifest
    /// role's state. A device whose bootloader is not SUIT is refused before anything else.
    public func inspectSUIT() async throws(UpgradeError) -> SUITDeviceState {
        let parameters = await client.parameters()
        let name = try await optional(OSBootloaderName(), stage: "read the bootloader's name")
        guard name == "SUIT" else {
            let error = UpgradePlanError.notSUITDevice(bootloader: name)
            throw UpgradeError(stage: UpgradeError.planStage, underlying: error, hint: error.hint)
        }
        let state: SUITDeviceState
        do {
            state = SUITDeviceState(parameters: parameters, bootloaderName: name, manifests: try await readSUITManifests())
        } catch {
            throw UpgradeError(stage: "read the SUIT manifests", underlying: error)
        }
        events(.suitInspected(state))
        return state
    }

    /// Reads the device's state and plans the installation of `package` without changing anything.
    public func planSUIT(_ package: SUITUpgradePackage) async throws(UpgradeError) -> SUITUpgradePlan {
        let state = try await inspectSUIT()
        do {
            let plan = try SUITUpgradePlanner.plan(package: package, device: state, options: options)
            events(.suitPlanned(plan))
            return plan
        } catch {
            throw UpgradeError(stage: UpgradeError.planStage, underlying: error, hint: error.hint)
        }
    }

    /// Plans and installs a SUIT envelope or package (smp-protocol.md §14): caches, envelope,
    /// the resources the device asks for, the restart, and the check of the manifest digest.
    /// Run again after an interruption, it starts the envelope over (SUIT uploads do not resume
    /// across runs) and finishes; a device that already reports the digest is left alone.
    public func runSUIT(_ package: SUITUpgradePackage) async throws -> SUITUpgradeReport {
        defer { suitRun = nil }
        return try await closingOwnedClients { try await installSUIT(package) }
    }

    private func installSUIT(_ package: SUITUpgradePackage) async throws -> SUITUpgradeReport {
        let start = ContinuousClock.now
        let plan = try await planSUIT(package)
        suitRun = SUITRun(package: package)
        let records = try await runSteps(plan.steps.map(UpgradeStep.suit)) { step in
            if case .suit(let suitStep) = step { try await self.performSUIT(suitStep) }
        }
        let finalState: [SUITDeviceState.Manifest]
        do {
            finalState = try await readSUITManifests()
        } catch {
            throw UpgradeError(stage: "read the final SUIT manifests", underlying: error)
        }
        return SUITUpgradeReport(
            plan: plan, steps: records, uploads: uploads, resourcesServed: suitRun?.resourcesServed ?? [], finalState: finalState,
            seconds: (ContinuousClock.now - start).seconds)
    }

    /// Runs one SUIT step.
    func performSUIT(_ step: SUITUpgradeStep) async throws {
        guard let run = suitRun else { throw UpgradeVerificationError("a SUIT step ran outside a SUIT upgrade") }
        switch step {
        case .uploadCache(let file, let partition, _, _):
            try await uploadSUIT(file, kind: .cache(partition: UInt64(partition)))
        case .uploadEnvelope(let file, let deferInstall):
            try await uploadSUIT(file, kind: .envelope(deferInstall: deferInstall))
        case .processEnvelope:
            try await client.send(SUITProcessEnvelope())
        case .serveResources:
            try await serveResources(run.package)
        case .waitForRestart:
            if suitRun?.sawInstalled == true {
                events(.note("the device has installed the envelope and is running again"))
                return
            }
            if !(suitRun?.deviceWentSilent ?? false) {
                events(.note("the device did not restart on its own; resetting it"))
                try await reset()
            }
            try await waitForDevice(sawSilence: suitRun?.deviceWentSilent ?? false, isChanged: Self.reportsInstalled(run.package.digest))
        case .verify(let digest, let sequence):
            try await verifySUIT(digest: digest, sequenceNumber: sequence)
        }
    }

    private func uploadSUIT(_ file: SUITUpgradeFile, kind: SUITUploadKind) async throws {
        let uploader = ChunkedUploader(client: client, target: SUITUploadTarget(kind: kind), options: options.upload)
        let events = events
        let result = try await uploader.upload(file.bytes) { progress in events(.suitUploadProgress(file, progress)) }
        uploads.append(result)
    }

    /// Serves the resources the device asks for (``SUITResourceServer``).
    private func serveResources(_ package: SUITUpgradePackage) async throws {
        let events = events
        var server = SUITResourceServer(client: client, package: package, options: options)
        server.installed = Self.reportsInstalled(package.digest)
        let outcome = try await server.serve(
            requested: { events(.suitResourceRequested($0, file: $1)) }, progress: { events(.suitUploadProgress($0, $1)) })
        uploads += outcome.uploads
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

    private func verifySUIT(digest: [UInt8], sequenceNumber: UInt64?) async throws {
        let manifests = try await readSUITManifests()
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
    func readSUITManifests() async throws(SMPError) -> [SUITDeviceState.Manifest] {
        try await SUITDeviceState.readManifests(from: client)
    }

    /// What to suggest when a SUIT step failed with `error`.
    static func suitHint(for step: SUITUpgradeStep, error: any Error) -> String? {
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
            return "check that the device restarted (try --reset-timeout), then run the same command again to finish"
        case .verify:
            return "run `smpctl suit manifests` to see the device's state"
        }
    }
}
