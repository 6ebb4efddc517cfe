import SMP

/// What an upgrade learns from the device before it plans: MCUmgr parameters, the bootloader and
/// its mode, and the image-state list.
public struct UpgradeDeviceState: Sendable, Hashable {
    /// Buffer size and count (or the transport's assumed ones).
    public var parameters: MCUmgrParameters
    /// The bootloader's name, nil when the device does not report it.
    public var bootloaderName: String?
    /// MCUboot's mode; ``MCUbootMode/unknown`` when the device does not report it.
    public var mode: MCUbootMode
    /// Whether MCUboot refuses images that are not newer than the running one.
    public var noDowngrade: Bool
    /// The image-state list.
    public var slots: [ImageSlotState]
    /// Which SMP server answers: the application, or MCUboot's serial recovery.
    public var server: ServerRecognition
    /// Whether the device refused to mark an image (MGMT_ERR_ENOTSUP) in an earlier attempt of
    /// this upgrade: its bootloader takes no marks, so none are planned.
    public var refusesMarks: Bool

    /// Creates a snapshot.
    public init(
        parameters: MCUmgrParameters, bootloaderName: String? = "MCUboot", mode: MCUbootMode, noDowngrade: Bool = false,
        slots: [ImageSlotState], server: ServerRecognition = ServerRecognition(role: .application, evidence: []),
        refusesMarks: Bool = false
    ) {
        self.parameters = parameters
        self.bootloaderName = bootloaderName
        self.mode = mode
        self.noDowngrade = noDowngrade
        self.slots = slots
        self.server = server
        self.refusesMarks = refusesMarks
    }

    /// The slots listed for an image number.
    func slots(of image: Int) -> [ImageSlotState] {
        slots.filter { $0.image == UInt64(image) }
    }

    /// The running slot of an image: the one flagged active, else slot 0.
    func activeSlot(of image: Int) -> ImageSlotState? {
        let listed = slots(of: image)
        return listed.first { $0.active } ?? listed.first { $0.slot == 0 }
    }
}
