/// A legacy DFU control point op code (nRF5 SDK 11 `ble_dfu.h`; IOS-DFU-Library
/// `LegacyDFU/Characteristics/DFUControlPoint.swift`).
public enum LegacyDFUOpCode: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// 0x01: start an update; the image sizes follow on the Packet characteristic.
    case start = 0x01
    /// 0x02: the init packet: `[02 00]` before its bytes on the Packet characteristic, `[02 01]` after.
    case initialize = 0x02
    /// 0x03: the firmware follows on the Packet characteristic.
    case receiveFirmware = 0x03
    /// 0x04: check the received image against the init packet.
    case validate = 0x04
    /// 0x05: install the validated image and reset.
    case activateAndReset = 0x05
    /// 0x06: reset, dropping whatever was received.
    case reset = 0x06
    /// 0x07: report the firmware bytes received (answered with a u32).
    case reportReceivedSize = 0x07
    /// 0x08: a packet receipt notification after every n packets (u16; 0 turns them off).
    case receiptNotificationRequest = 0x08
    /// 0x10: a response (sent by the bootloader).
    case response = 0x10
    /// 0x11: a packet receipt notification (sent by the bootloader).
    case receiptNotification = 0x11

    public var description: String {
        switch self {
        case .start: "Start"
        case .initialize: "Init"
        case .receiveFirmware: "Receive firmware"
        case .validate: "Validate"
        case .activateAndReset: "Activate and reset"
        case .reset: "Reset"
        case .reportReceivedSize: "Report received size"
        case .receiptNotificationRequest: "Packet receipt notification request"
        case .response: "Response"
        case .receiptNotification: "Packet receipt notification"
        }
    }
}
