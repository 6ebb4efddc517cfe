/// The loop every kind of upgrade runs its plan's steps through (``FirmwareUpgrade`` for MCUboot
/// and SUIT, the Nordic DFU upgrade): each step reported as it starts and ends, with its time; a
/// failure wrapped in an ``UpgradeError`` that names the step, with the advice of the kind of
/// firmware; cancellation passed through as it is, checked before each step.
package enum UpgradeStepLoop {
    /// Runs `steps` in order with `perform`, reporting each through `events`; a failure names
    /// its step, and `advice` says what to try. It runs on the caller's actor (`isolation`), as
    /// the closures do.
    package static func run<Step: UpgradeStep>(
        _ steps: [Step], isolation: isolated (any Actor)? = #isolation, events: (UpgradeEvent) -> Void,
        advice: (Step, any Error) -> UpgradeError.Advice, perform: (Step) async throws -> Void
    ) async throws -> [UpgradeStepRecord] {
        var records: [UpgradeStepRecord] = []
        for (offset, step) in steps.enumerated() {
            try Task.checkCancellation()
            let stepStart = ContinuousClock.now
            events(.stepStarted(step, index: offset + 1, count: steps.count))
            do {
                try await perform(step)
            } catch let error as CancellationError {
                throw error
            } catch {
                if Task.isCancelled { throw CancellationError() }
                let advice = advice(step, error)
                throw UpgradeError(stage: step.summary, step: step.name, underlying: error, hint: advice.hint, nextStep: advice.nextStep)
            }
            let seconds = (ContinuousClock.now - stepStart).seconds
            records.append(UpgradeStepRecord(step: step, seconds: seconds))
            events(.stepFinished(step, index: offset + 1, count: steps.count, seconds: seconds))
        }
        return records
    }
}
