import FoundationEssentials
import JSON
import SMP
import SMPFirmware
import Synchronization

/// Shows an upgrade as it runs: the plan, each step with its time, a progress bar per upload, a
/// spinner while a step waits (reset, swap, erase, marks, checks) and notes on standard error (as
/// ``ProgressDisplay`` says), the result on standard output; or, with `--json`, each of these as a
/// JSON line on standard output; all of it through `output` (a device's, within a many-device run).
final class UpgradeReporter: Sendable {
    private let output: Output
    private var json: Bool { output.json }
    private let file: String
    private let dryRun: Bool
    /// Renders a command to print (``Invocation/commandLine(_:)``).
    private let command: @Sendable ([String]) -> String
    private let state = Mutex(State())

    /// The upload's bar, the plan in force and the step under way.
    private struct State {
        var uploadRenderer: TransferProgressRenderer?
        var spinner: WaitSpinner?
        var plan: (any UpgradePlan)?
        var step: (step: any UpgradeStep, index: Int, count: Int)?
    }

    init(output: Output, file: String, dryRun: Bool, command: @escaping @Sendable ([String]) -> String = ShellQuoting.commandLine) {
        self.output = output
        self.file = file
        self.dryRun = dryRun
        self.command = command
    }

    /// The step under way, e.g. for an interruption message.
    var currentStep: (any UpgradeStep)? { state.withLock { $0.step?.step } }

    /// The plan last made (a run through the bootloader plans again in it), e.g. for an
    /// interruption message.
    var currentPlan: (any UpgradePlan)? { state.withLock { $0.plan } }

    /// Shows one event.
    func show(_ event: UpgradeEvent) {
        state.withLock { state in
            switch event {
            case .inspected(let device):
                emit(UpgradeRendering.inspectedJSON(device), text: UpgradeRendering.inspectedText(device, file: file))
            case .planned(let plan):
                state.plan = plan
                guard !dryRun else { return }
                emit(UpgradeRendering.planJSON(plan), text: UpgradeRendering.planText(plan))
            case .stepStarted(let step, let index, let count):
                state.step = (step, index, count)
                emit(UpgradeRendering.stepJSON(step, index: index, count: count, status: "started"), text: "[\(index)/\(count)] \(step.summary)")
                if let upload = step.upload {
                    state.uploadRenderer = renderer(upload)
                } else if !json {
                    state.spinner = WaitSpinner(step.summary)
                }
                state.uploadRenderer?.start()
            case .stepFinished(let step, let index, let count, let seconds):
                state.spinner?.stop()
                state.spinner = nil
                state.uploadRenderer?.finish()
                state.uploadRenderer = nil
                emit(
                    UpgradeRendering.stepJSON(step, index: index, count: count, status: "done", seconds: seconds),
                    text: "[\(index)/\(count)] done in \(TransferProgressRenderer.seconds(seconds))")
            case .uploadProgress(_, let progress):
                state.uploadRenderer?.show(progress)
            case .resourceRequested(let request):
                state.spinner?.stop()
                state.spinner = nil
                state.uploadRenderer?.finish()
                emit(UpgradeRendering.resourceJSON(request), text: request.summary)
                state.uploadRenderer = renderer(request.upload)
            case .note(let message):
                state.spinner?.stop()
                state.spinner = nil
                state.uploadRenderer?.finish()
                emit(.object([("event", .string("note")), ("message", .string(message))]), text: "note: \(message)")
            }
        }
    }

    /// How an upgrade ended: planned only (`--dry-run`), or installed.
    enum Outcome {
        /// The plan of a dry run.
        case planned(any UpgradePlan)
        /// The report of an upgrade that ran.
        case finished(any UpgradeReport)
    }

    /// Prints the plan of a dry run, or the result.
    func finish(_ outcome: Outcome) {
        switch outcome {
        case .planned(let plan):
            write(UpgradeRendering.planJSON(plan), text: UpgradeRendering.planText(plan) + "\n(dry run: nothing was changed)")
        case .finished(let report):
            write(UpgradeRendering.doneJSON(report, file: file), text: UpgradeRendering.doneText(report, file: file, command: command))
        }
    }

    /// The last document on standard output.
    private func write(_ document: JSONValue, text: String) {
        if json { output.write(document: document) } else { output.write(text: text + "\n") }
    }

    /// The progress bar of an upload.
    private func renderer(_ upload: UpgradeUpload) -> TransferProgressRenderer {
        TransferProgressRenderer(output: output, announcement: nil, label: upload.label, context: JSONValue.members(upload.fields))
    }

    /// Ends a live bar or spinner before an error is printed.
    func abandon() {
        state.withLock { state in
            state.spinner?.stop()
            state.uploadRenderer?.finish()
        }
    }

    /// A JSON line on standard output, or an informational line on standard error (`-q` drops it).
    private func emit(_ document: JSONValue, text: String) {
        if json {
            output.write(document: document)
        } else {
            output.info(text)
        }
    }
}
