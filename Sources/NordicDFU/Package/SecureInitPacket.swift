/// A Secure DFU init packet (nRF5 SDK 12–17; the `.dat` file of a package): a protobuf `Packet`
/// holding either a `Command` or a `SignedCommand` (a command, a signature type and a
/// signature), whose command is an init command (`op_code` INIT).
///
/// Decoded with ``ProtobufReader`` so that ``initCommandBytes`` are the exact bytes the signature
/// covers. The packet itself is sent to the bootloader unchanged (``bytes``).
public struct SecureInitPacket: Sendable, Equatable {
    /// The signature algorithm (`SignatureType`).
    public enum SignatureType: Int, Sendable, Equatable, CustomStringConvertible {
        case ecdsaP256SHA256 = 0
        case ed25519 = 1

        public var description: String {
            switch self {
            case .ecdsaP256SHA256: return "ECDSA P-256 SHA-256"
            case .ed25519: return "Ed25519"
            }
        }
    }

    /// The signature of a signed packet.
    public struct Signature: Sendable, Equatable {
        /// The algorithm.
        public var type: SignatureType
        /// The signature as stored: for ECDSA P-256, r and s (32 bytes each), each byte-reversed.
        public var storedBytes: [UInt8]
    }

    /// The largest init packet read: the nRF5 SDK bootloaders take at most 512 bytes
    /// (`INIT_COMMAND_MAX_SIZE`); this bound leaves room for variants and still refuses
    /// anything that is clearly not an init packet.
    public static let maximumSize = 4096

    /// The whole packet, as sent to the bootloader.
    public var bytes: [UInt8]
    /// The init command.
    public var command: InitCommand
    /// The serialized `InitCommand` exactly as it appears in ``bytes``: what the signature covers.
    public var initCommandBytes: [UInt8]
    /// The signature; nil for an unsigned packet.
    public var signature: Signature?

    /// Decodes `bytes`.
    public init(bytes: [UInt8]) throws(InitPacketError) {
        guard bytes.count <= Self.maximumSize else { throw .tooLarge(size: bytes.count, limit: Self.maximumSize) }
        var reader = ProtobufReader(bytes, range: 0..<bytes.count)
        var seen = ProtobufFieldsSeen("Packet")
        var unsigned: ProtobufReader?
        var signed: ProtobufReader?
        while let field = try reader.next() {
            switch field.number {
            case 1:
                try seen.first(field, "command")
                try field.expect(.lengthDelimited, "Packet", "command")
                unsigned = reader.message(in: field)
            case 2:
                try seen.first(field, "signed_command")
                try field.expect(.lengthDelimited, "Packet", "signed_command")
                signed = reader.message(in: field)
            default:
                continue
            }
        }
        let commandReader: ProtobufReader
        switch (unsigned, signed) {
        case (let command?, nil):
            commandReader = command
            signature = nil
        case (nil, let signedCommand?):
            let decoded = try Self.signedCommand(signedCommand)
            commandReader = decoded.command
            signature = decoded.signature
        case (_?, _?):
            throw .notAnInitCommand("the packet holds both command and signed_command")
        case (nil, nil):
            throw .notAnInitCommand("the packet holds neither command nor signed_command")
        }
        let initReader = try Self.initCommand(in: commandReader)
        self.bytes = bytes
        command = try InitCommand(initReader)
        initCommandBytes = Array(bytes[initReader.position..<initReader.end])
    }

    /// The command and signature of a `SignedCommand`.
    private static func signedCommand(_ reader: ProtobufReader) throws(InitPacketError) -> (command: ProtobufReader, signature: Signature) {
        let name = "SignedCommand"
        var reader = reader
        var seen = ProtobufFieldsSeen(name)
        var command: ProtobufReader?
        var type: SignatureType?
        var bytes: [UInt8]?
        while let field = try reader.next() {
            switch field.number {
            case 1:
                try seen.first(field, "command")
                try field.expect(.lengthDelimited, name, "command")
                command = reader.message(in: field)
            case 2:
                try seen.first(field, "signature_type")
                type = try field.enumeration(name, "signature_type")
            case 3:
                try seen.first(field, "signature")
                try field.expect(.lengthDelimited, name, "signature")
                bytes = Array(reader.bytes[field.content])
            default:
                continue
            }
        }
        guard let command else { throw .missingField(message: name, field: "command") }
        guard let type else { throw .missingField(message: name, field: "signature_type") }
        guard let bytes else { throw .missingField(message: name, field: "signature") }
        return (command, Signature(type: type, storedBytes: bytes))
    }

    /// The `init` of a `Command` whose `op_code` is INIT.
    private static func initCommand(in reader: ProtobufReader) throws(InitPacketError) -> ProtobufReader {
        /// `OpCode`: RESET 0, INIT 1.
        enum OpCode: Int { case reset = 0, initialize = 1 }
        let name = "Command"
        var reader = reader
        var seen = ProtobufFieldsSeen(name)
        var opCode: OpCode?
        var initCommand: ProtobufReader?
        while let field = try reader.next() {
            switch field.number {
            case 1:
                try seen.first(field, "op_code")
                opCode = try field.enumeration(name, "op_code")
            case 2:
                try seen.first(field, "init")
                try field.expect(.lengthDelimited, name, "init")
                initCommand = reader.message(in: field)
            default:
                continue
            }
        }
        guard opCode == .initialize else {
            throw .notAnInitCommand(opCode == nil ? "the command has no op_code" : "the command's op_code is RESET")
        }
        guard let initCommand else { throw .missingField(message: name, field: "init") }
        return initCommand
    }
}
