/// What a Nordic DFU image replaces on an nRF5 SDK device: the application, the bootloader, the
/// SoftDevice (Nordic's BLE stack), or a SoftDevice and a bootloader together.
///
/// The raw values are the `type` of a Secure DFU init packet (`InitCommand.type` in the nRF5
/// SDK's `dfu-cc.proto`); a legacy Start request names the same kinds by mode bits.
public enum DFUFirmwareType: Int, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    /// The application.
    case application = 0
    /// The SoftDevice alone.
    case softDevice = 1
    /// The bootloader alone.
    case bootloader = 2
    /// A SoftDevice and a bootloader in one image.
    case softDeviceBootloader = 3
    /// An application stored for another chip (nRF5 SDK 16+), never run by this bootloader.
    case externalApplication = 4

    /// The order in which a package's images are sent: a new SoftDevice (with or without a
    /// bootloader) first, then the bootloader, the application last, so that each image runs on
    /// what was installed before it.
    public var installOrder: Int {
        switch self {
        case .softDeviceBootloader: return 0
        case .softDevice: return 1
        case .bootloader: return 2
        case .application: return 3
        case .externalApplication: return 4
        }
    }

    /// The legacy DFU Start request's mode bits: SoftDevice 1, bootloader 2, application 4.
    public var legacyModeBits: UInt8 {
        switch self {
        case .softDevice: return 0x01
        case .bootloader: return 0x02
        case .softDeviceBootloader: return 0x03
        case .application, .externalApplication: return 0x04
        }
    }

    /// The name of its entry in an nRF5 SDK package's `manifest.json`.
    public var manifestKey: String {
        switch self {
        case .application: return "application"
        case .softDevice: return "softdevice"
        case .bootloader: return "bootloader"
        case .softDeviceBootloader: return "softdevice_bootloader"
        case .externalApplication: return "external_application"
        }
    }

    /// Sorts by ``installOrder``.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.installOrder < rhs.installOrder }

    /// The words people read: `application`, `SoftDevice and bootloader`.
    public var description: String {
        switch self {
        case .application: return "application"
        case .softDevice: return "SoftDevice"
        case .bootloader: return "bootloader"
        case .softDeviceBootloader: return "SoftDevice and bootloader"
        case .externalApplication: return "external application"
        }
    }
}
