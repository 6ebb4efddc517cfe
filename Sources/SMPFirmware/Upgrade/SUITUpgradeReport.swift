import SMP

/// A finished SUIT upgrade.
public struct SUITUpgradeReport: UpgradeReport {
    /// What was planned.
    public var plan: SUITUpgradePlan
    /// The steps that ran, in order.
    public var steps: [UpgradeStepRecord]
    /// Each upload's result (caches, envelope, resources), in order.
    public var uploads: [UploadResult]
    /// The resources the device asked for and got, in order (URIs).
    public var resourcesServed: [String]
    /// The manifests at the end.
    public var finalState: [SUITDeviceState.Manifest]
    /// How long the whole upgrade took.
    public var seconds: Double

    /// `SUIT`.
    public var summary: String { "SUIT" }

    /// `already installed (app-root (0x20) reports its digest)`.
    public var nothingToDo: String {
        plan.installedAs.map { "already installed (\($0) reports its digest)" } ?? "nothing to do"
    }

    /// None: a SUIT device reports manifests (``finalState``).
    public var finalImages: [ImageSlotState]? { nil }

    /// The bootloader, and whether the envelope was installed.
    public var fields: [UpgradeField] {
        [UpgradeField("bootloader", .string("SUIT")), UpgradeField("installed", .bool(!plan.isNothingToDo))]
    }

    /// The resources served, and the manifests at the end.
    public var finalFields: [UpgradeField] {
        [
            UpgradeField("resources", .array(resourcesServed.map(UpgradeValue.string))),
            UpgradeField("manifests", .array(finalState.map { .object($0.fields) })),
        ]
    }

    /// The resources served, and each manifest at the end.
    public var finalSummaries: [String] {
        (resourcesServed.isEmpty ? [] : ["resources served: " + resourcesServed.joined(separator: ", ")]) + finalState.map(\.summary)
    }

    /// Nothing: the device installed the envelope itself.
    public func advice(command: (SMPNextStep) -> String) -> [String] { [] }
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
