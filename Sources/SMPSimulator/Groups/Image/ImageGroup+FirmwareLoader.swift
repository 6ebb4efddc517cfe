import SMP

/// MCUboot's firmware-loader mode (``MCUbootMode/firmwareLoader``; `CONFIG_BOOT_FIRMWARE_LOADER`
/// in MCUboot, `CONFIG_MCUBOOT_BOOTLOADER_MODE_FIRMWARE_UPDATER` in Zephyr), as a
/// ``VirtualDevice`` runs it:
///
/// - Image 0's slot 0 holds the application, its only slot; slot 1 holds the firmware loader, a
///   separate signed image (``SimulatedImageConfiguration/firmwareLoaderImage()``).
/// - MCUboot starts the loader when asked to (boot mode 1) and the loader is valid, or when
///   slot 0 holds no valid application; otherwise the application (mcuboot
///   boot/zephyr/firmware_loader.c, `boot_go`). Marks are not read.
/// - The application lists slot 0 only, names no upload slot in slot info, and takes no upload
///   or erase: image group error `IMG_MGMT_ERR_NO_FREE_SLOT` (Zephyr's img_mgmt_state.c lists
///   only slot 0 in this mode and reports every slot in use). The loader runs from slot 1, lists
///   both slots and writes slot 0.
extension ImageGroup {
    /// Writes the firmware loader into image 0's slot 1.
    mutating func installFirmwareLoader() {
        images[0].slots[1] = configuration.firmwareLoaderImage()
    }

    /// Whether the image group runs the firmware loader (image 0 runs from slot 1).
    var runsFirmwareLoader: Bool { images[0].active == 1 }

    /// MCUboot's boot in firmware-loader mode: the loader when `loaderRequested` (boot mode 1,
    /// which MCUboot clears as it reads it) and it validates, or when slot 0 holds no valid
    /// application; the application otherwise. Any upload in progress is lost and marks are
    /// dropped. Returns whether the loader runs.
    mutating func bootInFirmwareLoaderMode(loaderRequested: Bool) -> Bool {
        upload = nil
        for index in images.indices {
            images[index].next = .none
            images[index].confirmed = true
        }
        let loader = holdsValidImage(image: 0, slot: 1) && (loaderRequested || !holdsValidImage(image: 0, slot: 0))
        images[0].active = loader ? 1 : 0
        return loader
    }

    /// Whether the application of a firmware-loader device answers for `image`: it has one slot,
    /// and nothing may be written or erased through it.
    func refusesWrites(image: Int, mode: MCUbootMode) -> Bool {
        mode == .firmwareLoader && (image != 0 || !runsFirmwareLoader)
    }

    /// The slots the state list shows for `image`: only slot 0 where the application of a
    /// firmware-loader device answers.
    func listedSlots(image: Int, mode: MCUbootMode) -> ClosedRange<Int> {
        mode == .firmwareLoader && !runsFirmwareLoader ? 0...0 : 0...1
    }
}

extension SimulatedImageConfiguration {
    /// The version of the firmware loader a firmware-loader device holds in image 0's slot 1.
    public static let firmwareLoaderVersion: (major: UInt8, minor: UInt8, revision: UInt16, build: UInt32) = (0, 1, 0, 0)

    /// The firmware loader's image file: version ``firmwareLoaderVersion``, with a SHA-256 TLV that
    /// is the hash of its content (MCUboot validates it before it starts it).
    func firmwareLoaderImage() -> [UInt8] {
        SimulatedImageHeader.soundImageFile(version: Self.firmwareLoaderVersion, body: [UInt8](repeating: 0x4C, count: 64))
    }
}
