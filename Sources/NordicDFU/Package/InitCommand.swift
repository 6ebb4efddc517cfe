/// The `InitCommand` of a Secure DFU init packet (`dfu-cc.proto` in pc-nrfutil and the nRF5 SDK):
/// what the image is, what it needs, and its hash.
///
/// Fields a packet leaves out keep the values protobuf gives them: `type` application, sizes 0,
/// `is_debug` false; `fw_version` and `hw_version` stay nil.
public struct InitCommand: Sendable, Equatable {
    /// A hash algorithm (`HashType`).
    public enum HashType: Int, Sendable, Equatable, CustomStringConvertible {
        case none = 0
        case crc = 1
        case sha128 = 2
        case sha256 = 3
        case sha512 = 4

        public var description: String {
            switch self {
            case .none: return "none"
            case .crc: return "CRC"
            case .sha128: return "SHA-128"
            case .sha256: return "SHA-256"
            case .sha512: return "SHA-512"
            }
        }
    }

    /// The image's hash (`Hash`).
    public struct Hash: Sendable, Equatable {
        /// The algorithm.
        public var type: HashType
        /// The hash as stored: nrfutil stores a SHA-256 digest byte-reversed (little-endian).
        public var storedBytes: [UInt8]
        /// The digest in the usual byte order (`sha256sum`'s): ``storedBytes`` reversed.
        public var digest: [UInt8] { storedBytes.reversed() }
    }

    /// How the bootloader checks an image at each boot (`ValidationType`).
    public enum ValidationType: Int, Sendable, Equatable, CustomStringConvertible {
        case none = 0
        case generatedCRC = 1
        case sha256 = 2
        case ecdsaP256SHA256 = 3

        public var description: String {
            switch self {
            case .none: return "none"
            case .generatedCRC: return "CRC"
            case .sha256: return "SHA-256"
            case .ecdsaP256SHA256: return "ECDSA P-256 SHA-256"
            }
        }
    }

    /// One boot validation (`BootValidation`): its type and bytes (a digest or a signature).
    public struct BootValidation: Sendable, Equatable {
        /// The check.
        public var type: ValidationType
        /// Its data.
        public var bytes: [UInt8]
    }

    /// `fw_version`: the version of the image, compared with the one installed.
    public var firmwareVersion: UInt32?
    /// `hw_version`: the hardware the image is for.
    public var hardwareVersion: UInt32?
    /// `sd_req`: the SoftDevice firmware IDs of which one must be installed (`0xFFFE`: any).
    public var softDeviceRequirements: [UInt32]
    /// `type`: what the image replaces.
    public var type: DFUFirmwareType
    /// `sd_size`: the SoftDevice's size in the image.
    public var softDeviceSize: UInt32
    /// `bl_size`: the bootloader's size in the image.
    public var bootloaderSize: UInt32
    /// `app_size`: the application's size.
    public var applicationSize: UInt32
    /// `hash`: the image's hash.
    public var hash: Hash?
    /// `is_debug`: a debug init packet, which the bootloader accepts without a version check.
    public var isDebug: Bool
    /// `boot_validation`: what the bootloader checks at each boot.
    public var bootValidations: [BootValidation]
}

extension InitCommand {
    /// Decodes an `InitCommand` message.
    init(_ reader: ProtobufReader) throws(InitPacketError) {
        let name = "InitCommand"
        var reader = reader
        var seen = ProtobufFieldsSeen(name)
        var command = InitCommand(
            firmwareVersion: nil, hardwareVersion: nil, softDeviceRequirements: [], type: .application, softDeviceSize: 0,
            bootloaderSize: 0, applicationSize: 0, hash: nil, isDebug: false, bootValidations: [])
        while let field = try reader.next() {
            switch field.number {
            case 1:
                try seen.first(field, "fw_version")
                command.firmwareVersion = try field.uint32(name, "fw_version")
            case 2:
                try seen.first(field, "hw_version")
                command.hardwareVersion = try field.uint32(name, "hw_version")
            case 3:
                // Repeated: packed (one length-delimited field) or one varint per element.
                if field.wireType == .lengthDelimited {
                    for (offset, value) in try reader.packedVarints(in: field) {
                        guard let requirement = UInt32(exactly: value) else {
                            throw .valueOutOfRange(offset: offset, message: name, field: "sd_req", value: value)
                        }
                        command.softDeviceRequirements.append(requirement)
                    }
                } else {
                    command.softDeviceRequirements.append(try field.uint32(name, "sd_req"))
                }
            case 4:
                try seen.first(field, "type")
                command.type = try field.enumeration(name, "type")
            case 5:
                try seen.first(field, "sd_size")
                command.softDeviceSize = try field.uint32(name, "sd_size")
            case 6:
                try seen.first(field, "bl_size")
                command.bootloaderSize = try field.uint32(name, "bl_size")
            case 7:
                try seen.first(field, "app_size")
                command.applicationSize = try field.uint32(name, "app_size")
            case 8:
                try seen.first(field, "hash")
                try field.expect(.lengthDelimited, name, "hash")
                command.hash = try Hash(reader.message(in: field))
            case 9:
                try seen.first(field, "is_debug")
                command.isDebug = try field.bool(name, "is_debug")
            case 10:
                try field.expect(.lengthDelimited, name, "boot_validation")
                command.bootValidations.append(try BootValidation(reader.message(in: field)))
            default:
                continue
            }
        }
        self = command
    }
}

extension InitCommand.Hash {
    init(_ reader: ProtobufReader) throws(InitPacketError) {
        let (type, bytes): (InitCommand.HashType, [UInt8]) = try reader.enumerationAndBytes(message: "Hash", "hash_type", "hash")
        self.init(type: type, storedBytes: bytes)
    }
}

extension InitCommand.BootValidation {
    init(_ reader: ProtobufReader) throws(InitPacketError) {
        let (type, bytes): (InitCommand.ValidationType, [UInt8]) = try reader.enumerationAndBytes(message: "BootValidation", "type", "bytes")
        self.init(type: type, bytes: bytes)
    }
}

extension ProtobufReader {
    /// Reads a message of two required fields, an enumeration (field 1) and bytes (field 2), as
    /// `Hash` and `BootValidation` are; other fields are passed over.
    func enumerationAndBytes<Value: RawRepresentable<Int>>(
        message name: String, _ enumerationName: String, _ bytesName: String
    ) throws(InitPacketError) -> (Value, [UInt8]) {
        var reader = self
        var seen = ProtobufFieldsSeen(name)
        var value: Value?
        var bytes: [UInt8]?
        while let field = try reader.next() {
            switch field.number {
            case 1:
                try seen.first(field, enumerationName)
                value = try field.enumeration(name, enumerationName)
            case 2:
                try seen.first(field, bytesName)
                try field.expect(.lengthDelimited, name, bytesName)
                bytes = Array(reader.bytes[field.content])
            default:
                continue
            }
        }
        guard let value else { throw .missingField(message: name, field: enumerationName) }
        guard let bytes else { throw .missingField(message: name, field: bytesName) }
        return (value, bytes)
    }
}
