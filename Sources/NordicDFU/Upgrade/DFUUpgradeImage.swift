import SMPFirmware

/// One image of a Nordic DFU upgrade as it is sent: what it replaces, its firmware and the init
/// packet the bootloader checks it against (empty for the oldest bootloaders, which take none).
/// A package's ``NordicDFUImage`` (decoded and checked) becomes one; a library user can also
/// send bytes without a package.
public struct DFUUpgradeImage: Sendable, Equatable {
    /// What the image replaces.
    public var type: DFUFirmwareType
    /// The firmware file's name in the package (or the file's name), for people.
    public var fileName: String
    /// The firmware.
    public var firmware: [UInt8]
    /// The init packet (`.dat`); empty when the image has none.
    public var initPacket: [UInt8]
    /// For a SoftDevice and bootloader image, the SoftDevice part's size (the rest is the
    /// bootloader): a legacy Start request names both. Nil for the other types.
    public var softDeviceSize: Int?

    /// Creates an image.
    ///
    /// - Parameter softDeviceSize: the SoftDevice part of a ``DFUFirmwareType/softDeviceBootloader``
    ///   image (needed by legacy DFU).
    public init(type: DFUFirmwareType, fileName: String, firmware: [UInt8], initPacket: [UInt8], softDeviceSize: Int? = nil) {
        self.type = type
        self.fileName = fileName
        self.firmware = firmware
        self.initPacket = initPacket
        self.softDeviceSize = type == .softDeviceBootloader ? softDeviceSize : nil
    }

    /// What a package's image sends: its firmware and its init packet's bytes (none for a bare
    /// application).
    public init(_ image: NordicDFUImage) {
        self.init(
            type: image.type, fileName: image.binFile, firmware: image.firmware, initPacket: image.initPacket.bytes ?? [],
            softDeviceSize: image.softDeviceSize)
    }

    /// `application app.bin (102400 bytes)`.
    public var summary: String { "\(type) \(fileName) (\(firmware.count) bytes)" }

    /// What a step's progress bar and JSON lines name: the image type and the file.
    var upload: UpgradeUpload {
        UpgradeUpload(
            fileName: fileName, size: firmware.count, label: type.description,
            fields: [UpgradeField("type", .string(type.manifestKey)), UpgradeField("file", .string(fileName))])
    }

    /// The image as JSON members.
    var fields: [UpgradeField] {
        [
            UpgradeField("type", .string(type.manifestKey)), UpgradeField("file", .string(fileName)),
            UpgradeField("bytes", .uint(UInt64(firmware.count))), UpgradeField("initPacketBytes", .uint(UInt64(initPacket.count))),
        ]
    }
}
