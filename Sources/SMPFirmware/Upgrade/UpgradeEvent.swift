import SMP

/// What an upgrade reports while it runs, in order.
public enum UpgradeEvent: Sendable {
    /// The device's state was read.
    case inspected(UpgradeDeviceState)
    /// The plan was made.
    case planned(UpgradePlan)
    /// A step starts (`index` counts from 1).
    case stepStarted(UpgradeStep, index: Int, count: Int)
    /// A step ended successfully after `seconds`.
    case stepFinished(UpgradeStep, index: Int, count: Int, seconds: Double)
    /// An upload advanced (the `number`-th upload of `count`).
    case uploadProgress(UpgradeImage, number: Int, count: Int, UploadProgress)
    /// A SUIT device's state was read.
    case suitInspected(SUITDeviceState)
    /// A SUIT upgrade was planned.
    case suitPlanned(SUITUpgradePlan)
    /// The SUIT device asks for a resource, served from `file`.
    case suitResourceRequested(SUITResourceRequest, file: SUITUpgradeFile)
    /// A SUIT upload (cache, envelope or resource) advanced.
    case suitUploadProgress(SUITUpgradeFile, UploadProgress)
    /// Something worth knowing that does not stop the upgrade.
    case note(String)
}
