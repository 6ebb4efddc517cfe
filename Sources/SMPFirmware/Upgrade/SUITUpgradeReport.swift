import SMP

/// A finished SUIT upgrade.
public struct SUITUpgradeReport: Sendable {
    /// What was planned.
    public var plan: SUITUpgradePlan
    /// The steps that ran, in order.
    public var steps: [UpgradeReport.StepRecord]
    /// Each upload's result (caches, envelope, resources), in order.
    public var uploads: [UploadResult]
    /// The resources the device asked for and got, in order (URIs).
    public var resourcesServed: [String]
    /// The manifests at the end.
    public var finalState: [SUITDeviceState.Manifest]
    /// How long the whole upgrade took.
    public var seconds: Double
}

/// A resource the device asked for that the package does not have.
public struct SUITMissingResourceError: Error, Sendable, CustomStringConvertible {
    /// The URI the device asked for.
    public var resourceID: String
    /// The resources the package has.
    public var available: [String]

    public var description: String {
        let have = available.isEmpty ? "none" : available.joined(separator: ", ")
        return "the device asks for \(resourceID), which the package does not hold (its resources: \(have))"
    }
}
