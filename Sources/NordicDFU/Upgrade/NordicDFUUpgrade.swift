import SMP
import SMPFirmware

/// Installs a Nordic DFU package: connects to the bootloader, reports what it is, plans (every
/// image, in the SDK's order) and sends each image, waiting for the bootloader between images.
/// It reports through the same ``UpgradeEvent``s, plan, steps and report vocabulary as an MCUboot
/// or SUIT upgrade, so a front end shows all of them alike.
///
/// ```swift
/// let upgrade = NordicDFUUpgrade(connect: {
///     SecureDFUBootloader(transport: try await SecureDFUSerialTransport.open(path: "/dev/ttyACM0"))
/// })
/// let report = try await upgrade.run(images)
/// ```
///
/// Running the same upgrade again after an interruption continues the image under way where a
/// Secure DFU bootloader's objects stop, and sends it again from its start to a legacy DFU
/// bootloader (see ``NordicDFUUpgradePlan/interruptionNote(during:)`` for images already
/// installed). Cancelling the calling task stops between writes.
public actor NordicDFUUpgrade {
    /// Opens a link to the bootloader.
    public typealias Connect = @Sendable () async throws -> any NordicDFUBootloader

    private let connect: Connect
    private let packageProtocol: NordicDFUProtocol?
    private let events: @Sendable (UpgradeEvent) -> Void
    private let reconnectTimeout: Duration
    /// How long a bootloader that accepted an image may keep the link before its reset drops it
    /// (BLE); the link is closed then anyway.
    static let resetGrace: Duration = .seconds(5)

    /// Creates an upgrade.
    ///
    /// - Parameters:
    ///   - connect: opens the link; called again after each image but the last, until the
    ///     bootloader answers or `reconnectTimeout` has passed.
    ///   - packageProtocol: the protocol the package is for (a legacy package's images, and a
    ///     bare application, go to a legacy bootloader only; a Secure one's to a Secure
    ///     bootloader); the plan refuses a bootloader of the other with
    ///     ``NordicDFUProtocolMismatchError`` before anything is sent. Nil: no such check.
    ///   - reconnectTimeout: how long the bootloader may take to come back after an image.
    ///   - events: receives progress; called on the upgrade's executor, so keep it quick.
    public init(
        connect: @escaping Connect, packageProtocol: NordicDFUProtocol? = nil, reconnectTimeout: Duration = .seconds(30),
        events: @escaping @Sendable (UpgradeEvent) -> Void = { _ in }
    ) {
        self.connect = connect
        self.packageProtocol = packageProtocol
        self.reconnectTimeout = reconnectTimeout
        self.events = events
    }

    /// Connects, reports the bootloader and plans, changing nothing.
    public func plan(_ images: [DFUUpgradeImage]) async throws(UpgradeError) -> NordicDFUUpgradePlan {
        let bootloader = try await open()
        do {
            let plan = try await plan(images, on: bootloader).plan
            await bootloader.close()
            return plan
        } catch {
            await bootloader.close()
            throw error
        }
    }

    /// Plans and sends every image.
    public func run(_ images: [DFUUpgradeImage]) async throws -> NordicDFUUpgradeReport {
        let start = ContinuousClock.now
        // The link in use; closed while the bootloader is away between images.
        var bootloader = try await open()
        var isOpen = true
        do {
            let (plan, _) = try await plan(images, on: bootloader)
            var uploads: [UploadResult] = []
            let records = try await UpgradeStepLoop.run(plan.steps, events: events, advice: Self.advice) { step in
                switch step {
                case .send(let image, _, _):
                    let upload = image.upload
                    let events = self.events
                    uploads.append(try await bootloader.send(image) { events(.uploadProgress(upload, $0)) })
                case .waitForBootloader:
                    await bootloader.closeWhenDropped(within: Self.resetGrace)
                    isOpen = false
                    bootloader = try await self.reconnect()
                    isOpen = true
                }
            }
            await bootloader.close()
            return NordicDFUUpgradeReport(plan: plan, steps: records, uploads: uploads, seconds: (ContinuousClock.now - start).seconds)
        } catch {
            if isOpen { await bootloader.close() }
            throw error
        }
    }

    /// The stage named when the first connection fails.
    static let connectStage = "connect to the bootloader"
    /// The stage named when the bootloader's description cannot be read.
    static let inspectStage = "ask the bootloader what it takes"

    private func open() async throws(UpgradeError) -> any NordicDFUBootloader {
        do {
            return try await connect()
        } catch {
            throw UpgradeError(stage: Self.connectStage, underlying: error)
        }
    }

    private func plan(_ images: [DFUUpgradeImage], on bootloader: any NordicDFUBootloader) async throws(UpgradeError) -> (plan: NordicDFUUpgradePlan, state: NordicDFUDeviceState) {
        let state: NordicDFUDeviceState
        do {
            state = try await bootloader.inspect()
        } catch {
            throw UpgradeError(stage: Self.inspectStage, underlying: error)
        }
        events(.inspected(state))
        if let packageProtocol, packageProtocol != state.dfuProtocol {
            throw UpgradeError(
                stage: UpgradeError.planStage, underlying: NordicDFUProtocolMismatchError(package: packageProtocol, device: state.dfuProtocol, link: state.link))
        }
        let plan = NordicDFUUpgradePlan(dfuProtocol: state.dfuProtocol, images: images)
        events(.planned(plan))
        return (plan, state)
    }

    /// Connects until the bootloader answers, or `reconnectTimeout` has passed (the last failure
    /// is thrown then).
    private func reconnect() async throws -> any NordicDFUBootloader {
        let deadline = ContinuousClock.now + reconnectTimeout
        while true {
            do {
                let bootloader = try await connect()
                _ = try await bootloader.inspect()
                return bootloader
            } catch {
                try Task.checkCancellation()
                guard ContinuousClock.now < deadline else { throw error }
                try await Task.sleep(for: .milliseconds(250))
            }
        }
    }

    private static func advice(for step: NordicDFUUpgradeStep, error: any Error) -> UpgradeError.Advice {
        switch step {
        case .send:
            // A refusal keeps its own hint (what the bootloader checks): running again meets it again.
            if let failure = error as? SecureDFUError, !failure.isTransient { return UpgradeError.Advice() }
            if let failure = error as? LegacyDFUError {
                // Legacy DFU keeps nothing of an interrupted image: a rerun sends it from its start.
                return failure.isTransient ? UpgradeError.Advice("run the same command again: it sends the image again from its start") : UpgradeError.Advice()
            }
            return UpgradeError.Advice("run the same command again: it continues the image where the bootloader's objects stop")
        case .waitForBootloader:
            return UpgradeError.Advice("check that the device came back in its bootloader, then run the same command again")
        }
    }
}
