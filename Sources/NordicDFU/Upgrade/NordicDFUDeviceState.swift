import SMPFirmware

/// What a Nordic DFU upgrade learns from the bootloader before it sends anything: the protocol,
/// the link, how large a write and a data object may be.
public struct NordicDFUDeviceState: UpgradeDeviceState, Hashable {
    /// The protocol the bootloader speaks.
    public var dfuProtocol: NordicDFUProtocol
    /// The link, for people: `serial /dev/ttyACM0`, `BLE C0:11:22:33:44:55`.
    public var link: String
    /// The payload bytes of one data write.
    public var writeSize: Int
    /// The largest data object the bootloader takes (Secure DFU; nil for legacy DFU).
    public var maximumObjectSize: Int?

    /// Creates a state.
    public init(dfuProtocol: NordicDFUProtocol, link: String, writeSize: Int, maximumObjectSize: Int?) {
        self.dfuProtocol = dfuProtocol
        self.link = link
        self.writeSize = writeSize
        self.maximumObjectSize = maximumObjectSize
    }

    /// `Nordic Secure DFU bootloader on serial /dev/ttyACM0: writes of 64 bytes, objects of 4096 bytes`.
    public var summary: String {
        "\(dfuProtocol.name) bootloader on \(link): writes of \(writeSize) bytes"
            + (maximumObjectSize.map { ", objects of \($0) bytes" } ?? "")
    }

    /// The protocol, the link and the sizes.
    public var fields: [UpgradeField] {
        [
            UpgradeField("bootloader", .string(dfuProtocol.name)), UpgradeField("link", .string(link)),
            UpgradeField("writeSize", .uint(UInt64(writeSize))),
            UpgradeField("maximumObjectSize", maximumObjectSize.map { .uint(UInt64($0)) } ?? .null),
        ]
    }
}
