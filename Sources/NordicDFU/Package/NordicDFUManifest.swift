import JSON
import SMPFirmware

/// The `manifest.json` of an nRF5 SDK DFU package, as pc-nrfutil and adafruit-nrfutil write it:
///
///     {"manifest": {"application": {"bin_file": "app.bin", "dat_file": "app.dat"},
///                   "softdevice_bootloader": {"bin_file": …, "dat_file": …,
///                                             "info_read_only_metadata": {"sd_size": …, "bl_size": …}},
///                   "dfu_version": 0.5}}                       (legacy packages only)
///
/// A legacy package names its DFU version and may describe each init packet
/// (`init_packet_data`); its combined SoftDevice and bootloader entry gives `sd_size` and
/// `bl_size` directly. Members other than the four image kinds and `dfu_version` are refused:
/// a part of a package this reader does not understand must not be left out silently.
public struct NordicDFUManifest: Sendable, Equatable {
    /// One image entry.
    public struct Entry: Sendable, Equatable {
        /// What the entry is listed as (its key; an external application is listed as `application`).
        public var type: DFUFirmwareType
        /// The image's file name in the archive.
        public var binFile: String
        /// The init packet's file name in the archive.
        public var datFile: String
        /// The SoftDevice part's size, for a combined SoftDevice and bootloader entry.
        public var softDeviceSize: Int?
        /// The bootloader part's size, for a combined SoftDevice and bootloader entry.
        public var bootloaderSize: Int?
        /// Whether the entry has `init_packet_data` (written for legacy packages).
        public var hasLegacyInitPacketData: Bool
    }

    /// `dfu_version` as written (`0.5`); nil for a Secure DFU package.
    public var dfuVersion: String?
    /// The entries in install order (``DFUFirmwareType/installOrder``).
    public var entries: [Entry]

    /// Whether this is a legacy DFU package: it names a DFU version or describes init packets
    /// the legacy way.
    public var isLegacy: Bool { dfuVersion != nil || entries.contains(where: \.hasLegacyInitPacketData) }

    /// The image kinds an nRF5 SDK manifest can list.
    static let imageTypes: [DFUFirmwareType] = [.softDeviceBootloader, .softDevice, .bootloader, .application]

    /// Parses `manifest.json`'s bytes.
    public init(json bytes: [UInt8]) throws(NordicDFUPackageError) {
        let root: JSONValue
        do {
            root = try JSONValue.parse(bytes)
        } catch {
            throw .archive(.manifestSyntax(error))
        }
        try self.init(root)
    }

    /// Reads a parsed `manifest.json`.
    public init(_ root: JSONValue) throws(NordicDFUPackageError) {
        guard case .object = root else { throw .manifestInvalid(path: "(top level)", problem: "expected an object, found \(root.typeName)") }
        guard let manifest = root["manifest"] else {
            throw .manifestInvalid(path: "(top level)", problem: "missing required key \"manifest\" (this is not an nRF5 SDK DFU package)")
        }
        guard case .object(let members) = manifest else {
            throw .manifestInvalid(path: "manifest", problem: "expected an object, found \(manifest.typeName)")
        }
        var dfuVersion: String?
        var entries: [Entry] = []
        for (key, value) in members {
            if key == "dfu_version" {
                dfuVersion = try Self.version(value)
            } else if let type = Self.imageTypes.first(where: { $0.manifestKey == key }) {
                entries.append(try Entry(value, type: type))
            } else {
                let known = (Self.imageTypes.map(\.manifestKey) + ["dfu_version"]).joined(separator: ", ")
                throw .manifestInvalid(path: "manifest.\(Self.shown(key))", problem: "unknown key (known: \(known)); a newer package format?")
            }
        }
        guard !entries.isEmpty else {
            throw .manifestInvalid(path: "manifest", problem: "no image (application, bootloader, softdevice or softdevice_bootloader)")
        }
        self.dfuVersion = dfuVersion
        self.entries = entries.sorted { $0.type < $1.type }
    }

    /// `dfu_version`: a number (`0.5`) or a string.
    private static func version(_ value: JSONValue) throws(NordicDFUPackageError) -> String {
        switch value {
        case .double(let number): return String(number)
        case .int(let number): return String(number)
        case .string(let text): return text
        default: throw .manifestInvalid(path: "manifest.dfu_version", problem: "expected a number, found \(value.typeName)")
        }
    }

    /// A key as shown in a key path: cut at 64 characters, control characters escaped.
    static func shown(_ key: String) -> String {
        let quoted = NordicDFUPackageError.quoted(key.count > 64 ? String(key.prefix(64)) + "…" : key)
        return String(quoted.dropFirst().dropLast())
    }
}

extension NordicDFUManifest.Entry {
    init(_ value: JSONValue, type: DFUFirmwareType) throws(NordicDFUPackageError) {
        let path = "manifest.\(type.manifestKey)"
        guard case .object = value else { throw .manifestInvalid(path: path, problem: "expected an object, found \(value.typeName)") }
        self.type = type
        binFile = try Self.fileName(value, "bin_file", path: path)
        datFile = try Self.fileName(value, "dat_file", path: path)
        hasLegacyInitPacketData = value["init_packet_data"] != nil
        // Secure packages put the sizes in info_read_only_metadata, legacy ones in the entry.
        let metadata = value["info_read_only_metadata"]
        if let metadata {
            guard case .object = metadata else {
                throw .manifestInvalid(path: "\(path).info_read_only_metadata", problem: "expected an object, found \(metadata.typeName)")
            }
        }
        let sizesPath = metadata == nil ? path : "\(path).info_read_only_metadata"
        let sizes = metadata ?? value
        softDeviceSize = try Self.size(sizes, "sd_size", path: sizesPath)
        bootloaderSize = try Self.size(sizes, "bl_size", path: sizesPath)
    }

    /// A required file name, checked to be a safe archive entry name.
    private static func fileName(_ object: JSONValue, _ key: String, path: String) throws(NordicDFUPackageError) -> String {
        guard let value = object[key] else { throw .manifestInvalid(path: path, problem: "missing required key \"\(key)\"") }
        guard case .string(let name) = value else {
            throw .manifestInvalid(path: "\(path).\(key)", problem: "expected a string, found \(value.typeName)")
        }
        guard PackageArchive.isSafe(name) else {
            throw .manifestInvalid(path: "\(path).\(key)", problem: "unsafe file name \(NordicDFUPackageError.quoted(name)) (absolute, '..' or backslash)")
        }
        return name
    }

    /// An optional non-negative size in bytes.
    private static func size(_ object: JSONValue, _ key: String, path: String) throws(NordicDFUPackageError) -> Int? {
        switch object[key] {
        case nil, .null?: return nil
        case .int(let value)? where value >= 0 && value <= UInt32.max: return Int(value)
        case let other?:
            let found: String
            switch other {
            case .int, .uint, .double: found = other.serialized()
            default: found = other.typeName
            }
            throw .manifestInvalid(path: "\(path).\(key)", problem: "expected a size in bytes (0 to 4294967295), found \(found)")
        }
    }
}
