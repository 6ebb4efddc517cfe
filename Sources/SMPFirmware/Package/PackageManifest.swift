import JSON

/// The `manifest.json` of an NCS DFU package (`dfu_application.zip`, `dfu_suit.zip`).
///
/// Parsing is tolerant where NCS versions differ (numbers as JSON numbers, decimal strings or
/// `0x…` strings or literals; the image number as `image`, `image_index` or `partition`; unknown
/// keys ignored) and strict elsewhere: a missing `files`, `file` or `type` is an error naming the entry.
public struct PackageManifest: Sendable, Equatable {
    /// One entry of `files`.
    public struct File: Sendable, Equatable {
        /// The content type: `application`, `mcuboot`, `suit-envelope`, `cache`, `bin`, …
        public var type: String
        /// The file name inside the archive.
        public var file: String
        /// The target board, for example `nrf5340dk/nrf5340/cpuapp`.
        public var board: String?
        /// The SoC, for example `nrf5340`.
        public var soc: String?
        /// The flash or load address.
        public var loadAddress: UInt64?
        /// The MCUboot image number (`image` ‖ `image_index` ‖ `partition`, default 0).
        public var image: Int
        /// The `partition` value itself (the cache partition of SUIT cache files).
        public var partition: Int?
        /// The DirectXIP slot (`slot % 2`), if the entry has a `slot` key.
        public var slot: Int?
        /// `version_MCUBOOT` or `version_MCUBOOT+XIP`.
        public var mcubootVersion: String?
        /// Whether the version came as `version_MCUBOOT+XIP` (a DirectXIP build).
        public var isDirectXIPBuild: Bool
        /// `version` (network core and B0 images: the firmware-info version).
        public var version: String?
        /// The file size the manifest declares.
        public var size: Int?
    }

    /// `format-version`, if present.
    public var formatVersion: Int?
    /// `name`, if present.
    public var name: String?
    /// `time` (UNIX time of generation), if present.
    public var time: Int?
    /// The files, in manifest order.
    public var files: [File]

    /// Parses `manifest.json`'s bytes.
    public init(json bytes: [UInt8]) throws(FirmwarePackageError) {
        let root: JSONValue
        do {
            root = try JSONValue.parse(bytes, options: JSONParsingOptions(allowsHexadecimalIntegers: true))
        } catch {
            throw .manifestSyntax(error)
        }
        try self.init(root)
    }

    /// Reads a parsed `manifest.json`.
    public init(_ root: JSONValue) throws(FirmwarePackageError) {
        guard case .object = root else { throw .manifestInvalid(path: "(top level)", problem: "expected an object, found \(root.typeName)") }
        let top = ManifestFields(root, path: "")
        formatVersion = try top.integer("format-version")
        name = try top.text("name")
        time = try top.integer("time")
        guard let list = root["files"] else { throw .manifestInvalid(path: "(top level)", problem: "missing required key \"files\"") }
        guard case .array(let entries) = list else { throw .manifestInvalid(path: "files", problem: "expected an array, found \(list.typeName)") }
        guard !entries.isEmpty else { throw .manifestInvalid(path: "files", problem: "the list is empty") }
        var files: [File] = []
        for (index, entry) in entries.enumerated() {
            files.append(try File(entry, path: "files[\(index)]"))
        }
        self.files = files
    }
}

extension PackageManifest.File {
    init(_ value: JSONValue, path: String) throws(FirmwarePackageError) {
        guard case .object = value else { throw .manifestInvalid(path: path, problem: "expected an object, found \(value.typeName)") }
        let fields = ManifestFields(value, path: path)
        type = try fields.requiredText("type")
        file = try fields.requiredText("file")
        board = try fields.text("board")
        soc = try fields.text("soc")
        loadAddress = try fields.integer("load_address").flatMap { UInt64(exactly: $0) }
        partition = try fields.integer("partition")
        let explicitImage = try fields.integer("image")
        let imageIndex = try fields.integer("image_index")
        image = explicitImage ?? imageIndex ?? partition ?? 0
        guard image >= 0 else { throw .manifestInvalid(path: path, problem: "negative image number \(image)") }
        slot = try fields.integer("slot").map { (($0 % 2) + 2) % 2 }
        let xipVersion = try fields.text("version_MCUBOOT+XIP")
        let plainVersion = try fields.text("version_MCUBOOT")
        mcubootVersion = plainVersion ?? xipVersion
        isDirectXIPBuild = xipVersion != nil
        version = try fields.text("version")
        size = try fields.integer("size")
    }
}

/// Typed access to an object's members, with errors that name the key path.
private struct ManifestFields {
    let object: JSONValue
    let path: String

    init(_ object: JSONValue, path: String) {
        self.object = object
        self.path = path
    }

    private func keyPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// A string member; numbers are accepted and rendered in decimal.
    func text(_ key: String) throws(FirmwarePackageError) -> String? {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case .int(let value)?: return String(value)
        case .uint(let value)?: return String(value)
        case let other?: throw .manifestInvalid(path: keyPath(key), problem: "expected a string, found \(other.typeName)")
        }
    }

    func requiredText(_ key: String) throws(FirmwarePackageError) -> String {
        guard let text = try text(key) else { throw .manifestInvalid(path: path, problem: "missing required key \"\(key)\"") }
        return text
    }

    /// An integer member: a JSON integer, or a string holding a decimal or `0x…` integer.
    func integer(_ key: String) throws(FirmwarePackageError) -> Int? {
        let problem: String
        switch object[key] {
        case nil, .null?:
            return nil
        case .int(let value)?:
            if let int = Int(exactly: value) { return int }
            problem = "\(value) is out of range"
        case .uint(let value)?:
            problem = "\(value) is out of range"
        case .string(let text)?:
            if let int = Self.parseInteger(text) { return int }
            problem = "expected an integer, found the string \(FirmwarePackageError.quoted(text))"
        case let other?:
            problem = "expected an integer, found \(other.typeName)"
        }
        throw .manifestInvalid(path: keyPath(key), problem: problem)
    }

    /// `"123"`, `"-1"`, `"0x1f"` (surrounding spaces tolerated).
    static func parseInteger(_ text: String) -> Int? {
        let trimmed = text.trimmingSpaces
        let lower = trimmed.lowercased()
        if lower.hasPrefix("0x") { return Int(lower.dropFirst(2), radix: 16) }
        return Int(trimmed, radix: 10)
    }
}

extension String {
    fileprivate var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return self[first...last]
    }
}
