import SMP

/// Installs firmware on a device with a ``FirmwareUpgrader``: MCUboot images (``MCUbootUpgrader``)
/// or a SUIT envelope (``SUITUpgrader``). The upgrader reads the device's state and plans; the
/// upgrade runs the plan's steps one by one (docs/protocol/upgrade.md §17), reporting each through
/// ``UpgradeEvent``s, and holds what both kinds share: the connection (reopened across a reset
/// when needed), the resets and the waits for the device.
///
/// ```swift
/// let content = try UpgradeContent(FirmwarePackage(contentsOf: "dfu_application.zip"))
/// let upgrade = FirmwareUpgrade(client: client, reconnect: { try await SMPConnection.open(connection) })
/// let report = try await upgrade.run(content)
/// ```
///
/// The same command run again after an interruption carries on: uploads resume from the device's
/// offset, and images already uploaded, marked or running are not touched again. Cancelling the
/// calling task stops at once and leaves the device in a state the next run continues from; an
/// upload through MCUboot's serial recovery is the exception: it starts over, and the plan says
/// what the interruption left (``UpgradePlan/interruptionNote(during:)``).
public actor FirmwareUpgrade {
    /// Opens a new connection to the device, for when the old link does not survive its reset.
    public typealias Reconnect = @Sendable () async throws -> SMPClient

    /// How the upgrade runs.
    public nonisolated let options: UpgradeOptions
    /// The connection in use (replaced when a reset needed a new one).
    public internal(set) var client: SMPClient

    let reconnect: Reconnect?
    let events: @Sendable (UpgradeEvent) -> Void
    var uploads: [UploadResult] = []
    var ownedClients: [SMPClient] = []
    /// The image list the device reported last (its image state, or its answer to a test or a
    /// confirm), until something may have changed it (an upload, a reset); nil: read it again.
    /// After a failed upgrade: the device's state as far as it is known.
    public internal(set) var knownImages: [ImageSlotState]?

    /// Creates an upgrade.
    ///
    /// - Parameters:
    ///   - client: the connection to the device.
    ///   - reconnect: opens a new connection when the old one failed across the device's reset
    ///     (nil: keep the old one, which is enough for UDP and for serial ports that re-appear).
    ///   - options: mode, upload options, timing.
    ///   - events: receives progress; called on the upgrade's executor, so keep it quick.
    public init(
        client: SMPClient, reconnect: Reconnect? = nil, options: UpgradeOptions = UpgradeOptions(),
        events: @escaping @Sendable (UpgradeEvent) -> Void = { _ in }
    ) {
        self.client = client
        self.reconnect = reconnect
        self.options = options
        self.events = events
    }

    /// Reads the device's state as `upgrader` needs it, changing nothing; the state is reported.
    public func inspect<Upgrader: FirmwareUpgrader>(with upgrader: Upgrader) async throws(UpgradeError) -> Upgrader.DeviceState {
        var upgrader = upgrader
        let state = try await upgrader.inspect(in: self)
        events(.inspected(state))
        return state
    }

    /// Reads the device's state and plans the installation of `content` with `upgrader`,
    /// changing nothing.
    public func plan<Upgrader: FirmwareUpgrader>(
        _ content: Upgrader.Content, with upgrader: Upgrader
    ) async throws(UpgradeError) -> Upgrader.Plan {
        var upgrader = upgrader
        return try await upgrader.plan(content, in: self)
    }

    /// Plans and installs `content` with `upgrader`.
    public func run<Upgrader: FirmwareUpgrader>(_ content: Upgrader.Content, with upgrader: Upgrader) async throws -> Upgrader.Report {
        var upgrader = upgrader
        return try await closingOwnedClients { try await upgrader.install(content, in: self) }
    }

    // MARK: Helpers shared by the steps

    /// Runs `steps` in order with `perform`, reporting each (``UpgradeStepLoop``).
    func runSteps<Step: UpgradeStep>(
        _ steps: [Step], advice: (Step, any Error) -> UpgradeError.Advice, perform: (Step) async throws -> Void
    ) async throws -> [UpgradeStepRecord] {
        try await UpgradeStepLoop.run(steps, events: events, advice: advice, perform: perform)
    }

    /// The image list: the one the device reported last (``knownImages``), else read now, naming
    /// `stage` on failure.
    func listImages(stage: String) async throws(UpgradeError) -> [ImageSlotState] {
        if let knownImages { return knownImages }
        do {
            let images = try await client.send(ImageState()).images
            knownImages = images
            return images
        } catch {
            throw UpgradeError(stage: stage, underlying: error)
        }
    }

    /// Sends a query that older devices may not implement: "not supported" gives nil.
    func optional<Command: SMPCommand>(_ command: Command, stage: String) async throws(UpgradeError) -> Command.Response? {
        do {
            return try await client.send(command)
        } catch {
            if case .device(let deviceError, _) = error, deviceError.legacyReturnCode == .notSupported { return nil }
            if case .invalidResponse = error { return nil }
            throw UpgradeError(stage: stage, underlying: error)
        }
    }

    /// Runs `body`, then closes the connections opened by ``reconnect`` (the caller closes its
    /// own), whether `body` failed or not.
    func closingOwnedClients<Result: Sendable>(_ body: () async throws -> Result) async throws -> Result {
        do {
            let result = try await body()
            await closeOwnedClients()
            return result
        } catch {
            await closeOwnedClients()
            throw error
        }
    }

    private func closeOwnedClients() async {
        let owned = ownedClients
        ownedClients = []
        for client in owned { await client.close() }
    }
}
