/// What an upgrade of any kind will do (``MCUbootUpgradePlan``, ``SUITUpgradePlan``): a heading,
/// what it decided, notes, and the steps in order.
public protocol UpgradePlan: Sendable {
    /// The kind of step the plan is made of.
    associatedtype Step: UpgradeStep

    /// The steps, in order; empty when there is nothing to do.
    var steps: [Step] { get }
    /// Things the user should know (assumptions, adjustments).
    var notes: [String] { get }
    /// The plan's first line for people: `plan (test-and-confirm):`, `plan (SUIT): envelope …`.
    var summary: String { get }
    /// What the plan decided, one line each (an image to upload, one already running…).
    var decisionSummaries: [String] { get }
    /// Why there is no step, for people: `the device already runs this firmware`.
    var nothingToDo: String { get }
    /// Why there is no step, in a few words for a many-device table: `already running 1.2.0`.
    var nothingToDoBrief: String { get }
    /// What the plan decided as JSON members (after `"event": "plan"`, before its steps and notes).
    var fields: [UpgradeField] { get }

    /// What an interruption during `step` leaves on the device, for people, when running the
    /// same command again does not simply continue where it stopped; nil when it does.
    func interruptionNote(during step: any UpgradeStep) -> String?
}

extension UpgradePlan {
    /// Nil: the same command continues where an interrupted one stopped.
    public func interruptionNote(during step: any UpgradeStep) -> String? { nil }

    /// Whether the device already has everything: no step to run.
    public var isNothingToDo: Bool { steps.isEmpty }

    /// The steps, each as an ``UpgradeStep``.
    public var anySteps: [any UpgradeStep] { steps.map { $0 } }
}
