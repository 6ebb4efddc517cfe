/// One step of an upgrade plan, of any kind of firmware (``MCUbootUpgradeStep``,
/// ``SUITUpgradeStep``). The plan is data: ``FirmwareUpgrade`` runs the steps in order, reporting
/// each by its name and summary, and `--dry-run` prints them.
public protocol UpgradeStep: Sendable {
    /// A short name for logs and JSON: `upload`, `test`, `reset`, `upload-envelope`…
    var name: String { get }
    /// One line for people.
    var summary: String { get }
    /// What the step uploads, when it is an upload: its progress is reported as it goes.
    var upload: UpgradeUpload? { get }
}

extension UpgradeStep {
    /// The step as a JSON object: its name and summary.
    public var fields: [UpgradeField] {
        [UpgradeField("step", .string(name)), UpgradeField("summary", .string(summary))]
    }
}

/// One step that ran, and how long it took.
public struct UpgradeStepRecord: Sendable {
    /// The step.
    public var step: any UpgradeStep
    /// Seconds it took.
    public var seconds: Double

    /// Creates a record.
    public init(step: any UpgradeStep, seconds: Double) {
        self.step = step
        self.seconds = seconds
    }
}
