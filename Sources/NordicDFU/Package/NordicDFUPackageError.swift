import SMP
import SMPFirmware

/// Why a Nordic DFU package (an nRF5 SDK `.zip`, or a bare application `.bin`/`.hex`) could not
/// be opened or checked. Every case has a one-line, user-facing ``description`` that says what
/// is wrong, where, and what to do. `entry` is the manifest key (`application`, `softdevice`, …).
public enum NordicDFUPackageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Reading the file or the ZIP archive failed (unreadable, too large, corrupt, unsafe entry
    /// names, limits, `manifest.json` missing or not JSON): the same checks as NCS packages.
    case archive(FirmwarePackageError)
    /// The file is not a ZIP archive (no `PK\x03\x04` at its start).
    case notAnArchive(path: String, firstBytes: [UInt8])
    /// `manifest.json` has a problem at `path` (a key path such as `manifest.application.bin_file`).
    case manifestInvalid(path: String, problem: String)
    /// A manifest entry names a file the archive does not hold (exact name match).
    case missingFile(entry: String, name: String)
    /// A manifest entry names an archive entry that is not a regular file.
    case notAFile(entry: String, name: String)
    /// An init packet could not be decoded.
    case initPacket(entry: String, file: String, InitPacketError)
    /// The init packet's `type` does not fit the manifest entry it is listed under.
    case typeMismatch(entry: String, file: String, initPacketType: DFUFirmwareType)
    /// An image's size differs from the size its init packet or manifest declares.
    case sizeMismatch(entry: String, file: String, field: String, declared: Int, actual: Int)
    /// An image's SHA-256 digest differs from its init packet's.
    case hashMismatch(entry: String, file: String, declared: [UInt8], actual: [UInt8])
    /// An image's CRC-16 differs from its legacy init packet's.
    case crcMismatch(entry: String, file: String, declared: UInt16, actual: UInt16)
    /// A Secure DFU init packet without a hash, or with a hash other than SHA-256 (the only one
    /// the nRF5 SDK bootloaders accept).
    case unsupportedHash(entry: String, file: String, hashType: InitCommand.HashType?)
    /// A bare application given as Intel HEX holds more than one contiguous range.
    case severalRanges(path: String, [IntelHexRange])
    /// A bare application without a byte.
    case emptyApplication(path: String)
    /// The public key could not be read.
    case invalidKey(source: String, reason: String)

    public var description: String {
        switch self {
        case .archive(let error):
            return error.description
        case let .notAnArchive(path, firstBytes):
            let start = firstBytes.isEmpty ? "it is empty" : "it starts with \(Hex.string(firstBytes, separator: " "))"
            return "\(path) is not a Nordic DFU package: not a ZIP archive (\(start)); give a .zip made by nrfutil, or a bare application as such"
        case let .manifestInvalid(path, problem):
            return "manifest.json: \(path): \(problem)"
        case let .missingFile(entry, name):
            return "manifest.json: manifest.\(entry): \(Self.quoted(name)) is not in the archive"
        case let .notAFile(entry, name):
            return "manifest.json: manifest.\(entry): \(Self.quoted(name)) is not a regular file in the archive"
        case let .initPacket(entry, file, error):
            return "\(entry) init packet \(Self.quoted(file)): \(error)"
        case let .typeMismatch(entry, file, type):
            return "\(entry) init packet \(Self.quoted(file)) is for \(type.manifestKey) (type \(type.rawValue)), not \(entry); the package was put together wrongly"
        case let .sizeMismatch(entry, file, field, declared, actual):
            return "\(entry) image \(Self.quoted(file)) is \(actual) bytes but \(field) says \(declared); the image or its init packet was replaced — rebuild the package"
        case let .hashMismatch(entry, file, declared, actual):
            return "\(entry) image \(Self.quoted(file)) has SHA-256 \(Hex.string(actual)) but its init packet says \(Hex.string(declared)); the image or its init packet was replaced — rebuild the package"
        case let .crcMismatch(entry, file, declared, actual):
            return "\(entry) image \(Self.quoted(file)) has CRC-16 \(MCUbootHex.literal(actual, width: 4)) but its init packet says \(MCUbootHex.literal(declared, width: 4)); the image or its init packet was replaced — rebuild the package"
        case let .unsupportedHash(entry, file, hashType):
            let found = hashType.map { "a \($0) hash" } ?? "no hash"
            return "\(entry) init packet \(Self.quoted(file)) has \(found); nRF5 SDK bootloaders need SHA-256 — rebuild the package with nrfutil"
        case let .severalRanges(path, ranges):
            let list = ranges.prefix(8).map(\.description).joined(separator: ", ")
            let more = ranges.count > 8 ? ", …" : ""
            return "\(path) holds \(ranges.count) separate ranges (\(list)\(more)); a bare application is one contiguous range — convert only the application (e.g. objcopy -O binary)"
        case .emptyApplication(let path):
            return "\(path) is empty: a bare application is the application's bytes — give the build's .bin or .hex"
        case let .invalidKey(source, reason):
            return "\(source): \(reason); give the public key as PEM (nrfutil keys display --key pk --format pem)"
        }
    }

    /// A name in double quotes (``FirmwarePackageError``'s quoting, control characters escaped),
    /// cut at 200 characters so that a hostile name cannot flood a terminal.
    static func quoted(_ name: String) -> String {
        name.count > 200 ? FirmwarePackageError.quoted(String(name.prefix(200)) + "…") : FirmwarePackageError.quoted(name)
    }
}
