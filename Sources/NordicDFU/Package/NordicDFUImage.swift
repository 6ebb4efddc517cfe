import Crypto
import SMPConsoleFraming

/// One image of a Nordic DFU package: the firmware bytes to send and the init packet that
/// describes them, checked against each other when the package was opened.
public struct NordicDFUImage: Sendable, Equatable {
    /// The init packet sent before the image.
    public enum InitPacket: Sendable, Equatable {
        /// A Secure DFU (protobuf) init packet.
        case secure(SecureInitPacket)
        /// A legacy DFU extended init packet.
        case legacy(LegacyInitPacket)
        /// None: a bare application, for the oldest bootloaders (nRF Loader's flow).
        case none

        /// The packet's bytes as sent; nil for ``none``.
        public var bytes: [UInt8]? {
            switch self {
            case .secure(let packet): return packet.bytes
            case .legacy(let packet): return packet.bytes
            case .none: return nil
            }
        }
    }

    /// What the image replaces (for a Secure DFU package, the init packet's `type`, which may be
    /// an external application listed as `application`).
    public var type: DFUFirmwareType
    /// The image's file name (in the archive, or the bare file's name).
    public var binFile: String
    /// The init packet's file name in the archive; nil for a bare application.
    public var datFile: String?
    /// The firmware bytes.
    public var firmware: [UInt8]
    /// The init packet.
    public var initPacket: InitPacket
    /// The SoftDevice part's size (the whole image for a SoftDevice, 0 when there is none): the
    /// size a legacy Start request sends.
    public var softDeviceSize: Int
    /// The bootloader part's size (the whole image for a bootloader, 0 when there is none).
    public var bootloaderSize: Int
    /// The application's size (the whole image for an application, 0 otherwise).
    public var applicationSize: Int

    /// The SHA-256 digest of ``firmware``, in the usual byte order.
    public var sha256: [UInt8] { Array(SHA256.hash(data: firmware)) }

    /// The CRC-16 legacy init packets carry: CRC-16/CCITT-FALSE (polynomial 0x1021, initial
    /// value 0xFFFF, as the nRF5 SDK's `crc16_compute`) of ``firmware``.
    public var crc16: UInt16 { CRC16XMODEM.checksum(firmware, seed: 0xFFFF) }
}

extension NordicDFUImage {
    /// An image of an archive, its init packet decoded and checked against the firmware and the manifest entry.
    init(entry: NordicDFUManifest.Entry, legacy: Bool, firmware: [UInt8], initPacket bytes: [UInt8]) throws(NordicDFUPackageError) {
        let key = entry.type.manifestKey
        binFile = entry.binFile
        datFile = entry.datFile
        self.firmware = firmware
        (softDeviceSize, bootloaderSize, applicationSize) = (0, 0, 0)
        if legacy {
            let packet: LegacyInitPacket
            do {
                packet = try LegacyInitPacket(bytes: bytes)
            } catch {
                throw .initPacket(entry: key, file: entry.datFile, error)
            }
            type = entry.type
            initPacket = .legacy(packet)
            try setSizes(softDevice: entry.softDeviceSize, bootloader: entry.bootloaderSize, source: "manifest.\(key)")
            try check(packet, key: key)
        } else {
            let packet: SecureInitPacket
            do {
                packet = try SecureInitPacket(bytes: bytes)
            } catch {
                throw .initPacket(entry: key, file: entry.datFile, error)
            }
            let command = packet.command
            let fits = command.type == entry.type || (entry.type == .application && command.type == .externalApplication)
            guard fits else { throw .typeMismatch(entry: key, file: entry.datFile, initPacketType: command.type) }
            type = command.type
            initPacket = .secure(packet)
            try check(command, entry: entry)
        }
    }

    /// A bare application: no init packet.
    init(bareApplication firmware: [UInt8], name: String) {
        type = .application
        binFile = name
        datFile = nil
        self.firmware = firmware
        initPacket = .none
        softDeviceSize = 0
        bootloaderSize = 0
        applicationSize = firmware.count
    }

    /// Sets the three sizes from the image's type; a combined SoftDevice and bootloader takes its
    /// parts' sizes from `softDevice` and `bootloader`, which must add up to the image.
    private mutating func setSizes(softDevice: Int?, bootloader: Int?, source: String) throws(NordicDFUPackageError) {
        let key = type.manifestKey
        switch type {
        case .application, .externalApplication: applicationSize = firmware.count
        case .softDevice: softDeviceSize = firmware.count
        case .bootloader: bootloaderSize = firmware.count
        case .softDeviceBootloader:
            guard let softDevice else { throw .manifestInvalid(path: source, problem: "missing required key \"sd_size\"") }
            guard let bootloader else { throw .manifestInvalid(path: source, problem: "missing required key \"bl_size\"") }
            guard softDevice + bootloader == firmware.count else {
                throw .sizeMismatch(entry: key, file: binFile, field: "sd_size + bl_size", declared: softDevice + bootloader, actual: firmware.count)
            }
            (softDeviceSize, bootloaderSize) = (softDevice, bootloader)
        }
    }

    /// A Secure DFU init command's sizes and hash against the image (and the manifest's sizes).
    private mutating func check(_ command: InitCommand, entry: NordicDFUManifest.Entry) throws(NordicDFUPackageError) {
        let key = entry.type.manifestKey
        let file = entry.datFile
        try setSizes(softDevice: Int(command.softDeviceSize), bootloader: Int(command.bootloaderSize), source: "init packet \(file)")
        let declared: (field: String, size: Int)?
        switch type {
        case .application, .externalApplication: declared = ("app_size", Int(command.applicationSize))
        case .softDevice: declared = ("sd_size", Int(command.softDeviceSize))
        case .bootloader: declared = ("bl_size", Int(command.bootloaderSize))
        case .softDeviceBootloader: declared = nil  // checked by setSizes
        }
        if let declared, declared.size != firmware.count {
            throw .sizeMismatch(entry: key, file: binFile, field: "the init packet's \(declared.field)", declared: declared.size, actual: firmware.count)
        }
        if let size = entry.softDeviceSize, size != softDeviceSize {
            throw .sizeMismatch(entry: key, file: binFile, field: "manifest sd_size", declared: size, actual: softDeviceSize)
        }
        if let size = entry.bootloaderSize, size != bootloaderSize {
            throw .sizeMismatch(entry: key, file: binFile, field: "manifest bl_size", declared: size, actual: bootloaderSize)
        }
        guard let hash = command.hash, hash.type == .sha256 else {
            throw .unsupportedHash(entry: key, file: file, hashType: command.hash?.type)
        }
        guard hash.digest == sha256 else { throw .hashMismatch(entry: key, file: binFile, declared: hash.digest, actual: sha256) }
    }

    /// A legacy init packet's CRC-16, or length and SHA-256, against the image.
    private func check(_ packet: LegacyInitPacket, key: String) throws(NordicDFUPackageError) {
        switch packet.integrity {
        case .crc16(let declared):
            guard declared == crc16 else { throw .crcMismatch(entry: key, file: binFile, declared: declared, actual: crc16) }
        case let .sha256(length, digest, _):
            guard Int(length) == firmware.count else {
                throw .sizeMismatch(entry: key, file: binFile, field: "the init packet's length", declared: Int(length), actual: firmware.count)
            }
            guard digest == sha256 else { throw .hashMismatch(entry: key, file: binFile, declared: digest, actual: sha256) }
        }
    }
}
