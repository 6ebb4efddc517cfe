/// What an upgrade installs: MCUboot images, or a SUIT envelope with its caches and resources.
public enum UpgradeContent: Sendable {
    /// The images of an MCUboot image or package, for ``MCUbootUpgrader``.
    case mcuboot([UpgradeImage])
    /// A SUIT envelope with its caches and resources, for ``SUITUpgrader``.
    case suit(SUITUpgradePackage)

    /// The content of a package, by its kind: a SUIT envelope or package is installed by the SUIT
    /// upgrader, an MCUboot image or package by the MCUboot upgrader.
    public init(_ package: FirmwarePackage) throws(UpgradePlanError) {
        switch package.kind {
        case .suitEnvelope, .suitPackage: self = .suit(try SUITUpgradePackage(package))
        case .mcubootImage, .mcubootPackage: self = .mcuboot(try UpgradeImage.images(in: package))
        }
    }
}
