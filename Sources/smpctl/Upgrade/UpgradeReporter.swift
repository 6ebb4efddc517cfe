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

    /// The upload's bar, the plan in force, the step under way, and how the steps are counted.
    private struct State {
        var uploadRenderer: TransferProgressRenderer?
        var spinner: WaitSpinner?
        var plan: (any UpgradePlan)?
        var step: (step: any UpgradeStep, index: Int, count: Int)?
        /// The steps of the whole run as shown (the first plan's, then a changed plan's rest).
        var steps: [String] = []
        /// The steps finished so far: a plan made again (in the bootloader, after a refused mark)
        /// counts on from them.
        var finished = 0
        /// Where the running plan's steps start in ``steps``.
        var offset = 0
        /// The device's state read again during the run, said only if the plan changes with it.
        var reinspected: (any UpgradeDeviceState)?
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
    ///
    /// Text says each thing once: the device's state and the plan (what each image gets and
    /// why), then one line per step as it starts, numbered against the whole run, then the
    /// result (``finish(_:)``). A plan made again during the run (once the bootloader answers,
    /// after a refused mark) is shown only when its steps differ from the rest of the plan shown;
    /// its steps count on from those finished. With nothing to do, only the result says so.
    func show(_ event: UpgradeEvent) {
        state.withLock { state in
            switch event {
            case .inspected(let device):
                if json {
                    output.write(document: UpgradeRendering.inspectedJSON(device))
                } else if state.plan == nil {
                    output.info(UpgradeRendering.inspectedText(device, file: file))
                } else {
                    state.reinspected = device
                }
            case .planned(let plan):
                planned(plan, state: &state)
            case .stepStarted(let step, let index, let count):
                let number = state.offset + index
                let total = max(state.steps.count, state.offset + count)
                state.step = (step, number, total)
                emit(UpgradeRendering.stepJSON(step, index: number, count: total, status: "started"), text: "[\(number)/\(total)] \(step.summary)")
                if let upload = step.upload {
                    state.uploadRenderer = renderer(upload)
                } else if !json {
                    // The step's line above says what is waited for: the spinner adds the time.
                    state.spinner = WaitSpinner("")
                }
                state.uploadRenderer?.start()
            case .stepFinished(let step, _, _, let seconds):
                state.spinner?.stop()
                state.spinner = nil
                state.uploadRenderer?.finish()
                state.uploadRenderer = nil
                state.finished += 1
                if json, let (_, number, total) = state.step {
                    output.write(document: UpgradeRendering.stepJSON(step, index: number, count: total, status: "done", seconds: seconds))
                }
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

    /// A plan: the first is shown (a dry run's at the end, with its steps); one made again during
    /// the run only when its steps are not the rest of those shown.
    private func planned(_ plan: any UpgradePlan, state: inout State) {
        let steps = plan.anySteps.map(\.summary)
        defer {
            state.plan = plan
            state.reinspected = nil
        }
        guard state.plan != nil else {
            state.steps = steps
            // A dry run's plan is its result (``finish(_:)``).
            guard !dryRun else { return }
            if json {
                output.write(document: UpgradeRendering.planJSON(plan))
            } else if !plan.isNothingToDo {
                output.info(UpgradeRendering.planText(plan, steps: false))
            }
            return
        }
        state.offset = state.finished
        let unchanged = Array(state.steps.dropFirst(state.finished)) == steps
        if !unchanged { state.steps = Array(state.steps.prefix(state.finished)) + steps }
        if json {
            output.write(document: UpgradeRendering.planJSON(plan))
        } else if !unchanged {
            if let device = state.reinspected { output.info(UpgradeRendering.inspectedText(device, file: file)) }
            output.info(UpgradeRendering.planText(plan, steps: false))
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
            let text = UpgradeRendering.planText(plan, steps: true)
            write(UpgradeRendering.planJSON(plan), text: plan.isNothingToDo ? text : text + "\n(dry run: nothing was changed)")
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
        TransferProgressRenderer(output: output, label: upload.label, context: JSONValue.members(upload.fields))
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
