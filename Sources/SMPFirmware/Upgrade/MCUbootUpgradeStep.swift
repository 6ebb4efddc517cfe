import SMP

/// One step of an MCUboot upgrade plan, run in order by ``MCUbootUpgrader``.
public enum MCUbootUpgradeStep: UpgradeStep, Equatable {
    /// Confirm the running image of `image`: the device runs an unconfirmed test image, and its
    /// revert target occupies the slot the upload needs.
    case confirmRunning(image: Int)
    /// Upload an image (the `number`-th upload of `count`).
    case upload(MCUbootUpgradeImage, number: Int, count: Int)
    /// Erase the application's settings (Zephyr basic group).
    case eraseAppSettings
    /// Mark an image for test on the next reset.
    case test(MCUbootUpgradeImage)
    /// Confirm an image: before the reset it becomes pending permanently, after the reset the
    /// running image is confirmed.
    case confirm(MCUbootUpgradeImage)
    /// Reset the running application into its bootloader (boot mode 1): MCUboot's serial recovery.
    case enterBootloader
    /// Wait until MCUboot's serial recovery answers.
    case waitForBootloader
    /// Reset the running application into MCUboot's firmware loader (boot mode 1): the separate
    /// image in slot 1 that writes the application's slot 0 (firmware-loader mode).
    case enterFirmwareLoader
    /// Wait until MCUboot's firmware loader answers.
    case waitForFirmwareLoader
    /// Reset the device.
    case reset
    /// Wait until the device answers again after the reset.
    case waitForDevice
    /// Check that the images run.
    case verifyRunning([MCUbootUpgradeImage])
    /// Check that the images run and are confirmed, and that nothing is pending.
    case verifyConfirmed([MCUbootUpgradeImage])

    /// A short name for logs and JSON: `upload`, `test`, `reset`…
    public var name: String {
        switch self {
        case .confirmRunning: return "confirm-running"
        case .upload: return "upload"
        case .eraseAppSettings: return "erase-settings"
        case .test: return "test"
        case .confirm: return "confirm"
        case .enterBootloader: return "enter-bootloader"
        case .waitForBootloader: return "wait-bootloader"
        case .enterFirmwareLoader: return "enter-loader"
        case .waitForFirmwareLoader: return "wait-loader"
        case .reset: return "reset"
        case .waitForDevice: return "wait"
        case .verifyRunning: return "verify-running"
        case .verifyConfirmed: return "verify-confirmed"
        }
    }

    /// One line for people.
    public var summary: String {
        switch self {
        case .confirmRunning(let image):
            return "confirm the running image \(image) (an unconfirmed test image; its revert target holds the upload slot)"
        case .upload(let image, let number, let count):
            return "upload \(image.summary)" + (count > 1 ? " [\(number)/\(count)]" : "")
        case .eraseAppSettings:
            return "erase the application's settings"
        case .test(let image):
            return "mark image \(image.image) for test (hash \(image.hashHex.prefix(16))…)"
        case .confirm(let image):
            return "confirm image \(image.image) (hash \(image.hashHex.prefix(16))…)"
        case .enterBootloader:
            return "reset into the bootloader (boot mode 1: MCUboot serial recovery)"
        case .waitForBootloader:
            return "wait for MCUboot serial recovery to answer"
        case .enterFirmwareLoader:
            return "reset into MCUboot's firmware loader (boot mode 1; the loader in slot 1 writes the application's slot 0)"
        case .waitForFirmwareLoader:
            return "wait for MCUboot's firmware loader to answer"
        case .reset:
            return "reset the device"
        case .waitForDevice:
            return "wait for the device to restart"
        case .verifyRunning(let images):
            return "check that the new image\(images.count == 1 ? "" : "s") run\(images.count == 1 ? "s" : ""): " + Self.list(images)
        case .verifyConfirmed(let images):
            return "check that \(Self.list(images)) \(images.count == 1 ? "is" : "are") running and confirmed"
        }
    }

    /// Whether the step takes the application into its bootloader (or waits for it there): the
    /// plan is made again once the bootloader answers.
    var entersBootloader: Bool {
        [.enterBootloader, .waitForBootloader, .enterFirmwareLoader, .waitForFirmwareLoader].contains(self)
    }

    /// The image an upload step sends.
    public var upload: UpgradeUpload? {
        guard case .upload(let image, let number, let count) = self else { return nil }
        return UpgradeUpload(
            fileName: image.fileName, size: image.bytes.count, label: count > 1 ? "image \(number)/\(count)" : "",
            fields: [UpgradeField("image", .uint(UInt64(image.image))), UpgradeField("file", .string(image.fileName))])
    }

    private static func list(_ images: [MCUbootUpgradeImage]) -> String {
        images.map { "image \($0.image) \($0.version)" }.joined(separator: ", ")
    }
}
