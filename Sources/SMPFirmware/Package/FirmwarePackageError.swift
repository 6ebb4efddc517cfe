import JSON
import SMP

/// Why a firmware package (an MCUboot `.bin`, a `dfu_application.zip`, a SUIT envelope or package)
/// could not be opened. Every case has a one-line, user-facing ``description``.
public enum FirmwarePackageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// The file is larger than the limit.
    case fileTooLarge(path: String, limit: Int)
    /// The content is none of the known kinds; `hint` names what the extension suggested.
    case unrecognisedContent(path: String, firstBytes: [UInt8], hint: String?)
    /// The ZIP archive is damaged or uses a feature that cannot be read.
    case corruptArchive(String)
    /// An archive entry name is absolute, contains `..` or a backslash.
    case unsafeEntryName(String)
    /// Two archive entries have the same name.
    case duplicateEntry(String)
    /// The archive has more entries than the limit.
    case tooManyEntries(limit: Int)
    /// An entry is (or claims to be) larger than the per-entry limit.
    case entryTooLarge(name: String, size: UInt64, limit: Int)
    /// Reading an entry would take the total uncompressed size over the limit.
    case archiveTooLarge(limit: Int)
    /// An entry decompressed to more bytes than its header declared.
    case entrySizeMismatch(name: String, declared: UInt64)
    /// The archive has no `manifest.json`.
    case missingManifest
    /// `manifest.json` is not valid JSON.
    case manifestSyntax(JSONSyntaxError)
    /// `manifest.json` is valid JSON but a value is missing or wrong; `path` is the key path, such as `files[1].file`.
    case manifestInvalid(path: String, problem: String)
    /// A manifest entry names a file the archive does not hold (exact name match).
    case missingFile(entry: Int, name: String)
    /// A manifest entry names an archive entry that is not a regular file.
    case notAFile(entry: Int, name: String)
    /// A file of an MCUboot package does not start with the MCUboot image magic.
    case notAnMCUbootImage(entry: Int, name: String)
    /// Two manifest entries are for the same image number and slot.
    case duplicateImage(entry: Int, image: Int, slot: Int?, firstEntry: Int)
    /// The SUIT envelope is malformed.
    case invalidSUITEnvelope(String)
    /// An Intel HEX file (`.hex`) is malformed or does not hold exactly one MCUboot image.
    case intelHex(path: String, IntelHexError)

    public var description: String {
        switch self {
        case let .unreadable(path, reason):
            return "cannot read \(path): \(reason)"
        case let .fileTooLarge(path, limit):
            return "\(path) is larger than \(limit) bytes"
        case let .unrecognisedContent(path, firstBytes, hint):
            let start = firstBytes.isEmpty ? "it is empty" : "it starts with \(Hex.string(firstBytes, separator: " "))"
            let known = "not an MCUboot image, ZIP package or SUIT envelope"
            return "\(path) is \(known) (\(start))" + (hint.map { "; \($0)" } ?? "")
        case .corruptArchive(let reason):
            return "corrupt ZIP archive: \(reason)"
        case .unsafeEntryName(let name):
            return "unsafe entry name in the archive: \(Self.quoted(name)) (absolute, '..' or backslash)"
        case .duplicateEntry(let name):
            return "the archive holds \(Self.quoted(name)) more than once"
        case .tooManyEntries(let limit):
            return "the archive has more than \(limit) entries"
        case let .entryTooLarge(name, size, limit):
            return "archive entry \(Self.quoted(name)) is \(size) bytes uncompressed, more than the limit of \(limit)"
        case .archiveTooLarge(let limit):
            return "the archive's files add up to more than \(limit) bytes uncompressed"
        case let .entrySizeMismatch(name, declared):
            return "archive entry \(Self.quoted(name)) decompresses to more than its declared \(declared) bytes"
        case .missingManifest:
            return "the archive has no manifest.json"
        case .manifestSyntax(let error):
            return "manifest.json is not valid JSON: \(error)"
        case let .manifestInvalid(path, problem):
            return "manifest.json: \(path): \(problem)"
        case let .missingFile(entry, name):
            return "manifest.json: files[\(entry)]: \(Self.quoted(name)) is not in the archive"
        case let .notAFile(entry, name):
            return "manifest.json: files[\(entry)]: \(Self.quoted(name)) is not a regular file in the archive"
        case let .notAnMCUbootImage(entry, name):
            return "manifest.json: files[\(entry)]: \(Self.quoted(name)) is not an MCUboot image (no magic 3d b8 f3 96 at offset 0)"
        case let .duplicateImage(entry, image, slot, firstEntry):
            let what = "image \(image)" + (slot.map { " slot \($0)" } ?? "")
            return "manifest.json: files[\(entry)]: \(what) is already given by files[\(firstEntry)]"
        case .invalidSUITEnvelope(let reason):
            return "invalid SUIT envelope: \(reason)"
        case let .intelHex(path, error):
            return "\(path): \(error)"
        }
    }

    /// A name in double quotes, with control characters escaped so hostile names cannot garble a terminal.
    package static func quoted(_ name: String) -> String {
        "\"" + name.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? $0.escaped(asASCII: true) : String($0) }.joined() + "\""
    }
}
