/// The image group of a ``VirtualDevice`` (docs/protocol/images.md §4): how many images, how large their slots are,
/// where they lie in flash, how fast the flash is, and what runs at start. The bootloader mode
/// comes from ``VirtualDeviceConfiguration/bootloaderMode``: overwrite-only copies without
/// revert; direct-XIP runs from either slot (the highest version boots, or with revert the
/// slot marked for test or confirm); every other mode behaves as a swap mode (test, confirm,
/// revert).
public struct SimulatedImageConfiguration: Sendable, Hashable {
    /// Updatable images (`MCUMGR_GRP_IMG_UPDATABLE_IMAGE_NUMBER`), 1…3. With more than one, the
    /// state list carries `image`.
    public var imageCount: Int {
        didSet { imageCount = Self.clampImageCount(imageCount) }
    }
    /// The size of every slot in bytes.
    public var slotSize: Int
    /// How long flash erases and writes take (instant by default).
    public var flashTiming: SimulatedFlashTiming
    /// The flash address of the first slot (image 0, slot 0); the slots follow each other
    /// (``slotAddress(image:slot:)``). Direct-XIP images built for a fixed address (header
    /// flag `ROM_FIXED`) must name their target slot's address.
    public var flashBase: UInt64
    /// The flash write unit of an upload, 1…4096 (1: every byte is stored). Above 1 the device
    /// stores a chunk only in whole units and answers the aligned offset, as MCUboot's serial
    /// recovery does: the tail that does not fill a unit is dropped unless it ends the image.
    public var writeAlignment: Int {
        didSet { writeAlignment = Self.clampWriteAlignment(writeAlignment) }
    }
    /// Whether the bootloader checks an image's hash before it boots it, as MCUboot does: a
    /// marked image whose SHA-256 TLV differs from the hash of its content is not booted and its
    /// slot is erased. Off by default, because most tests use images with made-up hashes.
    public var checksImageHash = false
    /// The primary slot of each image starts with a confirmed image of this version, whose
    /// SHA-256 TLV is ``initialHash(image:)``.
    public var initialVersion: (major: UInt8, minor: UInt8, revision: UInt16, build: UInt32) {
        get { (initialMajor, initialMinor, initialRevision, initialBuild) }
        set { (initialMajor, initialMinor, initialRevision, initialBuild) = newValue }
    }

    private var initialMajor: UInt8 = 1
    private var initialMinor: UInt8 = 0
    private var initialRevision: UInt16 = 0
    private var initialBuild: UInt32 = 0

    /// Creates a configuration.
    public init(
        imageCount: Int = 1, slotSize: Int = 256 * 1024, flashTiming: SimulatedFlashTiming = SimulatedFlashTiming(),
        flashBase: UInt64 = 0x10000, writeAlignment: Int = 1
    ) {
        self.imageCount = Self.clampImageCount(imageCount)
        self.slotSize = max(64, slotSize)
        self.flashTiming = flashTiming
        self.flashBase = flashBase
        self.writeAlignment = Self.clampWriteAlignment(writeAlignment)
    }

    /// The flash address of a slot (slot 0 or 1 of an image):
    /// `flashBase + (image · 2 + slot) · slotSize`.
    public func slotAddress(image: Int, slot: Int) -> UInt64 {
        flashBase &+ UInt64(max(0, image * 2 + slot)) &* UInt64(slotSize)
    }

    /// The hash of the image that initially runs as `image`: 32 bytes of `0xA0 + image`.
    public static func initialHash(image: Int) -> [UInt8] { [UInt8](repeating: 0xA0 &+ UInt8(truncatingIfNeeded: image), count: 32) }

    /// The initial image file of `image`.
    func initialImage(_ image: Int) -> [UInt8] {
        SimulatedImageHeader.imageFile(version: initialVersion, body: [UInt8](repeating: 0, count: 64), hash: Self.initialHash(image: image))
    }

    private static func clampImageCount(_ count: Int) -> Int { min(3, max(1, count)) }

    private static func clampWriteAlignment(_ unit: Int) -> Int { min(4096, max(1, unit)) }
}
