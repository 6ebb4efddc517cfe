/// The status byte of a legacy DFU response `[0x10, op, status]` (`ble_dfu_resp_val_t` in the
/// nRF5 SDK 11's `ble_dfu.h`).
public enum LegacyDFUStatus: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// 1: done.
    case success = 1
    /// 2: not allowed now: Start while an update is under way, data before the init packet, Validate
    /// before the whole image arrived.
    case invalidState = 2
    /// 3: not supported: Start with a mode byte on an nRF5 SDK ≤ 6 bootloader, an application
    /// together with a SoftDevice or bootloader, sizes that are not multiples of 4.
    case notSupported = 3
    /// 4: the image is larger than the bootloader can store, or more bytes came than Start announced.
    case dataSizeExceedsLimit = 4
    /// 5: the received image's CRC-16 or SHA-256 differs from the init packet's (at Validate).
    case crcError = 5
    /// 6: the bootloader failed or refused: an init packet whose checks fail (device type or
    /// revision, application version, SoftDevice), or its receive buffers overflowed.
    case operationFailed = 6

    /// What it means, in a few words.
    public var name: String {
        switch self {
        case .success: "success"
        case .invalidState: "invalid state"
        case .notSupported: "not supported"
        case .dataSizeExceedsLimit: "data size exceeds limit"
        case .crcError: "CRC error"
        case .operationFailed: "operation failed"
        }
    }

    /// What a user can do about it.
    public var hint: String {
        switch self {
        case .success:
            "nothing to do"
        case .invalidState:
            "the bootloader was in the middle of another update: reset the device into its bootloader and run the update again from the start"
        case .notSupported:
            "the bootloader does not take this update: an application cannot be sent together with a SoftDevice or bootloader, image sizes must be multiples of 4, and nRF5 SDK ≤ 6 bootloaders take applications only"
        case .dataSizeExceedsLimit:
            "the image does not fit the bootloader's flash area: check that the package is for this chip and bootloader"
        case .crcError:
            "the received image differs from what the init packet describes: bytes were lost or damaged on the way (run again, with a smaller packet receipt notification interval), or the .dat and .bin do not belong together"
        case .operationFailed:
            "the bootloader refused the init packet (device type or revision, application version, or required SoftDevice do not match this device) or overflowed: check the package was built for this board, or lower the packet receipt notification interval (8 or less for the Adafruit bootloader)"
        }
    }

    public var description: String { "\(name) (\(rawValue))" }
}
