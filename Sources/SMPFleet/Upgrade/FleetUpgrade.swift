import SMP
import SMPFirmware

/// One device's upgrade for a fleet: reads the image list (before), runs ``FirmwareUpgrade`` with
/// phases named after its steps (`inspect`, `upload`, `test`, `reset`, `wait`, `confirm`…; see
/// ``UpgradeStep/name``), forwards upload progress and notes, and records the image list at the
/// end (after; after a failure, the list the upgrade last read, when nothing changed since). A device that already has the firmware is ``DeviceOutcome/skipped``, with a note
/// that says why (e.g. `already running 1.2.0`).
///
/// ```swift
/// let report = await FleetRun(targets: targets, jobs: 16).run(configuration: configuration, logger: logger) { client, target, recorder in
///     try await FleetUpgrade.run(content, options: options, client: client, reconnect: { try await SMPConnection.open(target.connection) }, recorder: recorder)
/// } failure: { … } events: { … }
/// ```
public enum FleetUpgrade {
    /// Upgrades the device `client` talks to with `content`.
    ///
    /// - Parameters:
    ///   - content: what to install (MCUboot images, a SUIT package…).
    ///   - options: mode, upload options, timing.
    ///   - client: the connection to the device (the caller closes it).
    ///   - reconnect: opens a new connection when the old one does not survive the device's reset;
    ///     the upgrade closes the connections it opened, and their retransmissions count as retries.
    ///   - recorder: receives phases, progress, notes and the image lists.
    /// - Returns: ``DeviceOutcome/succeeded``, or ``DeviceOutcome/skipped`` when no step had to run.
    /// - Throws: what the upgrade throws (an `UpgradeError` naming the step, a `CancellationError`).
    public static func run(
        _ content: UpgradeContent, options: UpgradeOptions, client: SMPClient,
        reconnect: @escaping @Sendable () async throws -> SMPClient, recorder: DeviceRecorder
    ) async throws -> DeviceOutcome {
        recorder.phase("inspect")
        if let before = try await readImages(client) { recorder.before(before) }
        let opened = OpenedClients()
        let upgrade = FirmwareUpgrade(
            client: client,
            reconnect: {
                let fresh = try await reconnect()
                opened.append(fresh)
                return fresh
            },
            options: options,
            events: { forward($0, to: recorder) })
        let ran: Bool
        do {
            let report = try await upgrade.run(content)
            if let after = report.finalImages {
                recorder.after(after)
            } else if await upgrade.client === client, let after = try? await readImages(client) {
                // The connection the upgrade ended with is closed when it opened it; the
                // caller's is still open.
                recorder.after(after)
            }
            ran = !report.steps.isEmpty
            if !ran { recorder.note(report.plan.nothingToDoBrief) }
        } catch {
            // What the device runs, when the upgrade read it after its last change (a failed
            // verification names it): the report's image list after.
            if let after = await upgrade.knownImages { recorder.after(after) }
            await opened.addRetries(to: recorder)
            throw error
        }
        await opened.addRetries(to: recorder)
        return ran ? .succeeded : .skipped
    }

    /// The image list, or nil when the device has no image group (a SUIT device may not).
    static func readImages(_ client: SMPClient) async throws(SMPError) -> [ImageSlotState]? {
        do {
            return try await client.send(ImageState()).images
        } catch {
            if SMPClient.isNotSupported(error) { return nil }
            throw error
        }
    }

    /// Forwards what the recorder shows of any upgrade's events (an MCUboot, SUIT or Nordic
    /// DFU upgrade's): steps as phases, upload progress, notes.
    public static func forward(_ event: UpgradeEvent, to recorder: DeviceRecorder) {
        switch event {
        case .stepStarted(let step, _, _):
            recorder.phase(step.name)
        case .uploadProgress(_, let progress):
            recorder.progress(
                sent: Int(clamping: progress.acknowledged), total: Int(clamping: progress.total),
                bytesPerSecond: progress.bytesPerSecond > 0 ? progress.bytesPerSecond : nil)
        case .note(let text):
            recorder.note(text)
        case .inspected, .planned, .stepFinished, .resourceRequested:
            break
        }
    }
}
