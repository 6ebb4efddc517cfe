import Foundation
import SMP
import SMPFirmware

/// Shows an upgrade as it runs: the plan, each step with its time, a progress bar per upload and
/// notes on standard error, the result on standard output; or, with `--json`, each of these as a
/// JSON line on standard output.
final class UpgradeReporter: @unchecked Sendable {
    private let json: Bool
    private let file: String
    private let dryRun: Bool
    private let lock = NSLock()
    private var uploadRenderer: ImageUploadProgressRenderer?
    private var step: (step: UpgradeStep, index: Int, count: Int)?

    init(json: Bool, file: String, dryRun: Bool) {
        self.json = json
        self.file = file
        self.dryRun = dryRun
    }

    /// The step under way, e.g. for an interruption message.
    var currentStep: UpgradeStep? { lock.withLock { step?.step } }

    /// Shows one event.
    func show(_ event: UpgradeEvent) {
        lock.withLock {
            switch event {
            case .inspected(let state):
                emit(UpgradeJSON.inspected(state), text: UpgradeText.inspected(state, file: file))
            case .planned(let plan):
                guard !dryRun else { return }
                emit(UpgradeJSON.plan(plan), text: UpgradeText.plan(plan))
            case .stepStarted(let step, let index, let count):
                self.step = (step, index, count)
                emit(UpgradeJSON.step(step, index: index, count: count, status: "started"), text: "[\(index)/\(count)] \(step.summary)")
                if case .upload(let image, let number, let uploads) = step {
                    uploadRenderer = ImageUploadProgressRenderer(
                        json: json, announcement: nil, label: uploads > 1 ? "image \(number)/\(uploads)" : "",
                        context: [("image", .uint(UInt64(image.image))), ("file", .string(image.fileName))])
                }
            case .stepFinished(let step, let index, let count, let seconds):
                uploadRenderer?.finish()
                uploadRenderer = nil
                emit(
                    UpgradeJSON.step(step, index: index, count: count, status: "done", seconds: seconds),
                    text: "[\(index)/\(count)] done in \(ImageUploadProgressRenderer.seconds(seconds))")
            case .uploadProgress(_, _, _, let progress):
                uploadRenderer?.show(progress)
            case .note(let message):
                uploadRenderer?.finish()
                emit(.object([("event", .string("note")), ("message", .string(message))]), text: "note: \(message)")
            }
        }
    }

    /// Prints the plan of a dry run.
    func finish(plan: UpgradePlan) {
        if json {
            Output.write(UpgradeJSON.plan(plan).serialized() + "\n", to: .standardOutput)
        } else {
            Output.write(UpgradeText.plan(plan) + "\n(dry run: nothing was changed)\n", to: .standardOutput)
        }
    }

    /// Prints the result.
    func finish(report: UpgradeReport) {
        if json {
            Output.write(UpgradeJSON.done(report, file: file).serialized() + "\n", to: .standardOutput)
        } else {
            Output.write(UpgradeText.done(report, file: file) + "\n", to: .standardOutput)
        }
    }

    /// Ends a live bar before an error is printed.
    func abandon() {
        lock.withLock { uploadRenderer?.finish() }
    }

    /// A JSON line on standard output, or a status line on standard error.
    private func emit(_ document: JSONValue, text: String) {
        if json {
            Output.write(document.serialized() + "\n", to: .standardOutput)
        } else {
            Output.status(text)
        }
    }
}
