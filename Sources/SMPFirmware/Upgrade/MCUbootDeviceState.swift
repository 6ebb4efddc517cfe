import SMP

/// What an upgrade learns from the device before it plans: MCUmgr parameters, the bootloader and
/// its mode, and the image-state list.
public struct MCUbootDeviceState: UpgradeDeviceState, Hashable {
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

    /// Whether MCUboot's firmware loader answers rather than the application: the device is in
    /// firmware-loader mode and runs image 0 from slot 1 (``listsFirmwareLoader(_:)``).
    public var runsFirmwareLoader: Bool {
        mode == .firmwareLoader && Self.listsFirmwareLoader(slots)
    }

    /// Whether an image list is the firmware loader's: image 0 runs from slot 1. MCUboot in
    /// firmware-loader mode keeps the loader in image 0's secondary slot and boots it only when
    /// asked to (boot mode, button, pin reset) or when slot 0 holds no valid application (mcuboot
    /// boot/zephyr/firmware_loader.c); the application itself runs from slot 0.
    static func listsFirmwareLoader(_ slots: [ImageSlotState]) -> Bool {
        slots.contains { $0.image == 0 && $0.slot == 1 && $0.active }
    }

    /// The bootloader, its mode, the parameters and what runs; or, when MCUboot's serial
    /// recovery or its firmware loader answers, what the slots hold.
    public var summary: String {
        if server.isSerialRecovery {
            let held = slots.map { "image \($0.image) slot \($0.slot) holds \($0.version)" }
            return "MCUboot serial recovery answers (the bootloader, not the application); \(parameters); "
                + (held.isEmpty ? "no valid image in its slots" : held.joined(separator: ", "))
        }
        if runsFirmwareLoader {
            let application = slots.first { $0.image == 0 && $0.slot == 0 }.map { "slot 0 holds the application \($0.version)" }
            return "MCUboot's firmware loader answers (it runs from slot 1, not the application); \(parameters); "
                + (application ?? "slot 0 holds no application")
        }
        let bootloader = bootloaderName ?? "bootloader not reported"
        let running = slots.filter(\.active).map { "image \($0.image) runs \($0.version)\($0.confirmed ? "" : " (not confirmed)")" }
        let modeName = mode == .unknown ? "mode not reported" : mode.name
        return "\(bootloader), \(modeName); \(parameters); " + running.joined(separator: ", ")
    }

    /// The bootloader, its mode, which server answers, the parameters and the image list.
    public var fields: [UpgradeField] {
        [
            UpgradeField("bootloader", bootloaderName.map(UpgradeValue.string) ?? .null),
            UpgradeField("bootloaderMode", .string(mode.name)), UpgradeField("noDowngrade", .bool(noDowngrade)),
            UpgradeField("server", .string(server.role.rawValue)), UpgradeField("serialRecovery", .bool(server.isSerialRecovery)),
            UpgradeField("serverEvidence", .array(server.evidence.map(UpgradeValue.string))),
            UpgradeField("bufferSize", .uint(UInt64(parameters.bufferSize))), UpgradeField("bufferCount", .uint(UInt64(parameters.bufferCount))),
            UpgradeField("images", .array(slots.map(\.upgradeValue))),
        ]
    }
}

extension ImageSlotState {
    /// The slot as a JSON object: image, slot, version, hash and flags.
    public var upgradeValue: UpgradeValue {
        .object([
            UpgradeField("image", .uint(image)), UpgradeField("slot", .uint(slot)), UpgradeField("version", .string(version)),
            UpgradeField("imageHash", .hex(hash)), UpgradeField("active", .bool(active)),
            UpgradeField("confirmed", .bool(confirmed)), UpgradeField("pending", .bool(pending)), UpgradeField("permanent", .bool(permanent)),
        ])
    }

    /// `image 0 slot 1: 1.2.0 (active, confirmed)`.
    public var upgradeSummary: String {
        var flags = [String]()
        if active { flags.append("active") }
        if confirmed { flags.append("confirmed") }
        if pending { flags.append(permanent ? "pending permanent" : "pending test") }
        let state = flags.isEmpty ? "" : " (\(flags.joined(separator: ", ")))"
        return "image \(image) slot \(slot): \(version)\(state)"
    }
}
