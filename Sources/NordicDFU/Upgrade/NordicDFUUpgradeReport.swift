import SMP
import SMPFirmware

/// A finished Nordic DFU upgrade: every image sent, checked and installed by the bootloader.
public struct NordicDFUUpgradeReport: UpgradeReport {
    /// What was planned.
    public var plan: NordicDFUUpgradePlan
    /// The steps that ran, in order.
    public var steps: [UpgradeStepRecord]
    /// Each image's upload, in order.
    public var uploads: [UploadResult]
    /// How long the whole upgrade took.
    public var seconds: Double

    /// Creates a report.
    public init(plan: NordicDFUUpgradePlan, steps: [UpgradeStepRecord], uploads: [UploadResult], seconds: Double) {
        self.plan = plan
        self.steps = steps
        self.uploads = uploads
        self.seconds = seconds
    }

    /// `Nordic Secure DFU`.
    public var summary: String { plan.dfuProtocol.name }

    /// Never: a package holds at least one image.
    public var nothingToDo: String { plan.nothingToDo }

    /// None: a DFU bootloader has no image list.
    public var finalImages: [ImageSlotState]? { nil }

    /// The bootloader's protocol, and the images installed.
    public var fields: [UpgradeField] {
        [
            UpgradeField("bootloader", .string(plan.dfuProtocol.name)),
            UpgradeField("installed", .array(plan.images.map { .string($0.type.manifestKey) })),
        ]
    }

    /// None: the bootloader reports nothing after it starts the new firmware.
    public var finalFields: [UpgradeField] { [] }

    /// What the device does now.
    public var finalSummaries: [String] {
        let types = plan.images.map(\.type)
        return ["installed: " + types.map(\.description).joined(separator: ", ") + "; the bootloader starts the "
            + (types.contains(.application) ? "new application" : "installed firmware")]
    }

    /// Nothing: the bootloader installed and started the firmware itself.
    public func advice(command: (SMPNextStep) -> String) -> [String] { [] }
}
