import SMP

/// A finished upgrade of any kind (``MCUbootUpgradeReport``, ``SUITUpgradeReport``): its plan,
/// the steps that ran, the uploads, what the device reports at the end.
public protocol UpgradeReport: Sendable {
    /// The kind of plan that was run.
    associatedtype Plan: UpgradePlan

    /// What was planned.
    var plan: Plan { get }
    /// The steps that ran, in order.
    var steps: [UpgradeStepRecord] { get }
    /// Each upload's result, in order.
    var uploads: [UploadResult] { get }
    /// How long the whole upgrade took.
    var seconds: Double { get }
    /// What ran, in a word or two for the result line: `test-and-confirm`, `SUIT`.
    var summary: String { get }
    /// Why nothing had to run, for people.
    var nothingToDo: String { get }
    /// The image list at the end, when the kind of firmware has one.
    var finalImages: [ImageSlotState]? { get }
    /// JSON members that say what ran (after `"file"`, before `"seconds"`).
    var fields: [UpgradeField] { get }
    /// JSON members for the device's state at the end (after `"uploads"`).
    var finalFields: [UpgradeField] { get }

    /// The state at the end for people, one line each (the image slots, the manifests).
    var finalSummaries: [String] { get }

    /// What is left to do, for people, one line each, with each step to take named by `command`
    /// (the front end's command for it); empty when the upgrade is complete.
    func advice(command: (SMPNextStep) -> String) -> [String]
}
