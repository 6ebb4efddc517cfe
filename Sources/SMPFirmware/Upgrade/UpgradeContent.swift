/// What an upgrade installs, bound to the ``FirmwareUpgrader`` that installs it: MCUboot images
/// (``MCUbootUpgrader``) or a SUIT envelope with its caches and resources (``SUITUpgrader``).
/// ``FirmwareUpgrade/plan(_:)`` and ``FirmwareUpgrade/run(_:)`` take it and answer in the
/// protocol-neutral ``UpgradePlan`` and ``UpgradeReport``, so that a front end never asks which
/// kind of firmware it handles.
public struct UpgradeContent: Sendable {
    private let planner: @Sendable (FirmwareUpgrade) async throws(UpgradeError) -> any UpgradePlan
    private let installer: @Sendable (FirmwareUpgrade) async throws -> any UpgradeReport

    /// `content`, installed by `upgrader`.
    public init<Upgrader: FirmwareUpgrader>(_ content: Upgrader.Content, with upgrader: Upgrader) {
        planner = { upgrade throws(UpgradeError) in try await upgrade.plan(content, with: upgrader) }
        installer = { upgrade in try await upgrade.run(content, with: upgrader) }
    }

    /// The content of a package, by its kind: a SUIT envelope or package is installed by the SUIT
    /// upgrader, an MCUboot image or package by the MCUboot upgrader.
    public init(_ package: FirmwarePackage) throws(UpgradePlanError) {
        switch package.kind {
        case .suitEnvelope, .suitPackage: self.init(try SUITUpgradePackage(package), with: .suit)
        case .mcubootImage, .mcubootPackage: self.init(try MCUbootUpgradeImage.images(in: package), with: .mcuboot)
        }
    }

    /// Reads the device's state and plans, changing nothing.
    func plan(in upgrade: FirmwareUpgrade) async throws(UpgradeError) -> any UpgradePlan {
        try await planner(upgrade)
    }

    /// Plans and installs.
    func install(in upgrade: FirmwareUpgrade) async throws -> any UpgradeReport {
        try await installer(upgrade)
    }
}

extension FirmwareUpgrade {
    /// Reads the device's state and plans the installation of `content`, changing nothing.
    public func plan(_ content: UpgradeContent) async throws(UpgradeError) -> any UpgradePlan {
        try await content.plan(in: self)
    }

    /// Plans and installs `content`.
    public func run(_ content: UpgradeContent) async throws -> any UpgradeReport {
        try await content.install(in: self)
    }
}
