import SMP

/// A finished upgrade.
public struct UpgradeReport: Sendable {
    /// One step that ran, and how long it took.
    public struct StepRecord: Sendable {
        /// The step.
        public var step: UpgradeStep
        /// Seconds it took.
        public var seconds: Double
    }

    /// What was planned.
    public var plan: UpgradePlan
    /// The steps that ran, in order.
    public var steps: [StepRecord]
    /// Each upload's result, in upload order.
    public var uploads: [UploadResult]
    /// The image-state list at the end.
    public var finalState: [ImageSlotState]
    /// How long the whole upgrade took.
    public var seconds: Double
}
