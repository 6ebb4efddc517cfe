import FoundationEssentials
import SMP
import SMPFirmware
import Synchronization

/// Shows an upgrade as it runs: the plan, each step with its time, a progress bar per upload, a
/// spinner while a step waits (reset, swap, erase, marks, checks) and notes on standard error (as
/// ``ProgressDisplay`` says), the result on standard output; or, with `--json`, each of these as a
/// JSON line on standard output.
final class UpgradeReporter: Sendable {
    private let json: Bool
    private let file: String
    private let dryRun: Bool
    /// Renders a command to print (``GlobalOptions/commandLine(_:)``).
    private let command: @Sendable ([String]) -> String
    private let state = Mutex(State())

    /// The upload's bar and the step under way.
    private struct State {
        var uploadRenderer: TransferProgressRenderer?
        var spinner: WaitSpinner?
        var step: (step: UpgradeStep, index: Int, count: Int)?
    }

    init(json: Bool, file: String, dryRun: Bool, command: @escaping @Sendable ([String]) -> String = ShellQuoting.commandLine) {
        self.json = json
        self.file = file
        self.dryRun = dryRun
        self.command = command
    }

    /// The step under way, e.g. for an interruption message.
    var currentStep: UpgradeStep? { state.withLock { $0.step?.step } }

    /// Shows one event.
    func show(_ event: UpgradeEvent) {
        state.withLock { state in
            switch event {
            case .inspected(let state):
                emit(UpgradeJSON.inspected(state), text: UpgradeText.inspected(state, file: file))
            case .planned(let plan):
                guard !dryRun else { return }
                emit(UpgradeJSON.plan(plan), text: UpgradeText.plan(plan))
            case .stepStarted(let step, let index, let count):
                state.step = (step, index, count)
                emit(UpgradeJSON.step(step, index: index, count: count, status: "started"), text: "[\(index)/\(count)] \(step.summary)")
                switch step {
                case .upload(let image, let number, let uploads):
                    state.uploadRenderer = TransferProgressRenderer(
                        output: Output(json: json), announcement: nil, label: uploads > 1 ? "image \(number)/\(uploads)" : "",
                        context: [("image", .uint(UInt64(image.image))), ("file", .string(image.fileName))])
                case .suit(.uploadCache(let file, _, _, _)), .suit(.uploadEnvelope(let file, _)):
                    state.uploadRenderer = suitRenderer(file)
                default:
                    if !json { state.spinner = WaitSpinner(step.summary) }
                }
                state.uploadRenderer?.start()
            case .stepFinished(let step, let index, let count, let seconds):
                state.spinner?.stop()
                state.spinner = nil
                state.uploadRenderer?.finish()
                state.uploadRenderer = nil
                emit(
                    UpgradeJSON.step(step, index: index, count: count, status: "done", seconds: seconds),
                    text: "[\(index)/\(count)] done in \(TransferProgressRenderer.seconds(seconds))")
            case .uploadProgress(_, _, _, let progress), .suitUploadProgress(_, let progress):
                state.uploadRenderer?.show(progress)
            case .suitInspected(let state):
                emit(UpgradeJSON.suitInspected(state), text: UpgradeText.suitInspected(state, file: file))
            case .suitPlanned(let plan):
                guard !dryRun else { return }
                emit(UpgradeJSON.suitPlan(plan), text: UpgradeText.suitPlan(plan))
            case .suitResourceRequested(let request, let served):
                state.spinner?.stop()
                state.spinner = nil
                state.uploadRenderer?.finish()
                emit(UpgradeJSON.resourceRequested(request, file: served), text: "the device asks for \(request); sending \(served.summary)")
                state.uploadRenderer = suitRenderer(served)
            case .note(let message):
                state.spinner?.stop()
                state.spinner = nil
                state.uploadRenderer?.finish()
                emit(.object([("event", .string("note")), ("message", .string(message))]), text: "note: \(message)")
            }
        }
    }

    /// Prints the plan of a dry run.
    func finish(plan: UpgradePlan) {
        finishDryRun(UpgradeJSON.plan(plan), text: UpgradeText.plan(plan))
    }

    /// Prints the plan of a SUIT dry run.
    func finish(suitPlan plan: SUITUpgradePlan) {
        finishDryRun(UpgradeJSON.suitPlan(plan), text: UpgradeText.suitPlan(plan))
    }

    /// Prints the result.
    func finish(report: UpgradeReport) {
        finish(UpgradeJSON.done(report, file: file), text: UpgradeText.done(report, file: file, command: command))
    }

    /// Prints the result of a SUIT upgrade.
    func finish(suitReport report: SUITUpgradeReport) {
        finish(UpgradeJSON.suitDone(report, file: file), text: UpgradeText.suitDone(report, file: file))
    }

    private func finishDryRun(_ document: JSONValue, text: String) {
        finish(document, text: text + "\n(dry run: nothing was changed)")
    }

    private func finish(_ document: JSONValue, text: String) {
        Output.write(json ? document.documentLine() : text + "\n", to: .standardOutput)
    }

    /// The progress of a SUIT upload.
    private func suitRenderer(_ file: SUITUpgradeFile) -> TransferProgressRenderer {
        TransferProgressRenderer(output: Output(json: json), announcement: nil, label: file.fileName, context: [("file", .string(file.fileName))])
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
            Output.write(document.documentLine(), to: .standardOutput)
        } else {
            Output.info(text)
        }
    }
}
