import SMP

/// A finished MCUboot upgrade.
public struct MCUbootUpgradeReport: UpgradeReport {
    /// What was planned.
    public var plan: MCUbootUpgradePlan
    /// The steps that ran, in order.
    public var steps: [UpgradeStepRecord]
    /// Each upload's result, in upload order.
    public var uploads: [UploadResult]
    /// The image-state list at the end.
    public var finalState: [ImageSlotState]
    /// How long the whole upgrade took.
    public var seconds: Double

    /// The mode: `test-and-confirm`.
    public var summary: String { plan.kind }

    /// The plan's reason.
    public var nothingToDo: String { plan.nothingToDo }

    /// ``finalState``.
    public var finalImages: [ImageSlotState]? { finalState }

    /// The mode.
    public var fields: [UpgradeField] { [UpgradeField("mode", .string(plan.mode.rawValue))] }

    /// The image list at the end.
    public var finalFields: [UpgradeField] { [UpgradeField("images", .array(finalState.map(\.upgradeValue)))] }

    /// Each slot of the image list at the end.
    public var finalSummaries: [String] { finalState.map(\.upgradeSummary) }

    /// After an upload-only upgrade, the marks and the reset (only the reset where the device
    /// takes no mark: serial recovery, the firmware loader, or a bootloader that boots the newest
    /// image); after a test-only one, the confirmation the firmware owes.
    public func advice(command: (SMPNextStep) -> String) -> [String] {
        switch (plan.mode, plan.installation) {
        case (.uploadOnly, .serialRecovery):
            return ["next: `\(command(.resetDevice))` boots what MCUboot's serial recovery wrote (it takes no mark)"]
        case (.uploadOnly, .firmwareLoader):
            return ["next: `\(command(.resetDevice))` leaves MCUboot's firmware loader and starts the application it wrote (it takes no mark)"]
        case (.uploadOnly, .newestBoots):
            return ["next: `\(command(.resetDevice))`: the bootloader boots the newest image (it takes no mark)"]
        case (.uploadOnly, .marked):
            let hashes = plan.decisions.filter { $0.action == .upload }.map { Hex.string($0.image.hash) }
            let marks = (hashes.isEmpty ? [String?.none] : hashes.map(Optional.some)).map { "`\(command(.testImage(hash: $0)))`" }
            return ["next: mark the image with \(marks.joined(separator: " and ")) (or image confirm, to keep it), then `\(command(.resetDevice))`"]
        case (.testOnly, .marked):
            return ["the new firmware must confirm itself, or the next reset reverts it"]
        case (.testOnly, _), (.testAndConfirm, _), (.confirmOnly, _):
            return []
        }
    }
}
