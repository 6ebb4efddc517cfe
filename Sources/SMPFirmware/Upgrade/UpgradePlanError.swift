import SMP

/// Why an upgrade cannot be planned: the package or the device's state rules it out. Nothing
/// has been written to the device when one of these is thrown.
public enum UpgradePlanError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A file of the package is not a complete MCUboot image.
    case invalidImage(fileName: String, reason: String)
    /// An image has no SHA-256 TLV, so the device could not list or mark it.
    case noImageHash(fileName: String)
    /// The package holds no image.
    case emptyPackage
    /// SUIT envelopes and packages go through the SUIT group, not MCUboot image management.
    case suitNotSupported
    /// The device's bootloader is SUIT: it takes SUIT envelopes, not MCUboot images.
    case suitDevice
    /// A SUIT file was given, but the device's bootloader is not SUIT.
    case notSUITDevice(bootloader: String?)
    /// A SUIT upgrade was given an MCUboot file.
    case notSUIT
    /// The envelope has no SHA-256 manifest digest to install and check it by.
    case suitDigest(fileName: String, found: String)
    /// The device reports no image at all.
    case noImagesListed
    /// The device's MCUboot runs a single application slot: the application cannot take an update.
    case singleSlot(MCUbootMode)
    /// The package has an image number the device does not list.
    case unknownImage(image: Int, fileName: String, listed: [Int])
    /// The image is not newer than the running one, and the device would refuse or not boot it.
    case notNewer(image: MCUbootUpgradeImage, running: String, reason: String)
    /// test-only was asked for an image the device already holds marked permanent.
    case alreadyPermanent(image: MCUbootUpgradeImage)

    public var description: String {
        switch self {
        case .invalidImage(let name, let reason):
            return "\(name): not a valid MCUboot image: \(reason)"
        case .noImageHash(let name):
            return "\(name): the image has no SHA-256 TLV, so the device could neither list nor mark it"
        case .emptyPackage:
            return "the package holds no MCUboot image"
        case .suitNotSupported:
            return "a SUIT envelope or SUIT package is installed through the SUIT group (FirmwareUpgrade.run(_:with: .suit)), not as MCUboot images"
        case .suitDevice:
            return "the device's bootloader is SUIT: it installs SUIT envelopes (.suit) or dfu_suit.zip packages, not MCUboot images"
        case .notSUITDevice(let bootloader):
            return "this is a SUIT envelope or package, but the device's bootloader is \(bootloader.map { "\"\($0)\"" } ?? "not reported"), not SUIT"
        case .notSUIT:
            return "not a SUIT envelope or SUIT package"
        case .suitDigest(let name, let found):
            return "\(name): the envelope's authentication wrapper has \(found), not the SHA-256 manifest digest a SUIT device reports"
        case .noImagesListed:
            return "the device lists no image (image state read returned an empty list)"
        case .singleSlot(let mode):
            return "the device's MCUboot runs in \(mode) mode: the application has no second slot to upload into"
        case .unknownImage(let image, let name, let listed):
            let numbers = listed.map(String.init).joined(separator: ", ")
            return "\(name) is for image \(image), but the device lists only image\(listed.count == 1 ? "" : "s") \(numbers)"
        case .notNewer(let image, let running, let reason):
            return "\(image.fileName): version \(image.version) is not newer than the running \(running); \(reason)"
        case .alreadyPermanent(let image):
            return "\(image.fileName): the device already holds this image marked permanent; it cannot be tested"
        }
    }

    /// What the user could do, with the settings named as the library's properties.
    public var hint: String? { hint(naming: .library) }

    /// What the user could do, with the settings named as the front end spells them.
    public func hint(naming names: UpgradeSettingNames) -> String? {
        switch self {
        case .invalidImage, .noImageHash:
            return "use the signed image the build produced (e.g. zephyr.signed.bin) or the SDK's dfu_application.zip"
        case .singleSlot:
            return "install through MCUboot's serial recovery: add \(names.viaBootloader) (the application resets into it), or start the recovery another way (button) and run the same command there"
        case .notNewer:
            return "build the image with a higher version (imgtool --version or CONFIG_MCUBOOT_IMGTOOL_SIGN_VERSION)"
        case .unknownImage:
            return "check that the package was built for this device"
        case .alreadyPermanent:
            return "reset the device to install it, or use \(names.mode(.confirmOnly))"
        case .suitDevice:
            return "use the build's SUIT envelope (root.suit) or dfu_suit.zip"
        case .notSUITDevice:
            return "use the MCUboot image (zephyr.signed.bin) or dfu_application.zip for this device"
        case .emptyPackage, .suitNotSupported, .noImagesListed, .notSUIT, .suitDigest:
            return nil
        }
    }
}
