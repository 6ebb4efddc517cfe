/// Names one image in the device's image-state list the way `smpctl image list` shows it: by slot,
/// by version, or by a unique prefix of its hash (the short hash the list prints is one).
///
/// ```swift
/// let selector = try ImageSelector(parsing: "5a5a5a5a")
/// let hash = try selector.hash(in: try await client.send(ImageState()))
/// try await client.send(ImageTest(hash: hash))
/// ```
public enum ImageSelector: Sendable, Hashable, CustomStringConvertible {
    /// A slot (0 primary, 1 secondary) of one image, or of whichever image has it when `image` is nil.
    case slot(UInt64, image: UInt64?)
    /// A version as the device prints it; missing trailing components count as 0
    /// (`1.2` is `1.2.0` is `1.2.0.0`).
    case version([UInt64], image: UInt64?)
    /// The leading hex digits (lowercase) of the image's SHA-256 TLV.
    case hashPrefix(String, image: UInt64?)

    /// The fewest hex digits a hash prefix may have.
    public static let minimumHashPrefixLength = 4

    /// Reads `slot:N`, a version (`1.2.3`, `v1.2.3`, `v1`) or a hash prefix of at least
    /// ``minimumHashPrefixLength`` hex digits; `image` restricts the match to one image number.
    public init(parsing text: String, image: UInt64? = nil) throws(ImageSelectorError) {
        let trimmed = text.trimmingSpaces()
        if trimmed.lowercased().hasPrefix("slot:") {
            guard let slot = UInt64(trimmed.dropFirst(5)) else { throw .malformed(text) }
            self = .slot(slot, image: image)
        } else if let version = Self.versionComponents(trimmed) {
            self = .version(version, image: image)
        } else if trimmed.count >= Self.minimumHashPrefixLength, trimmed.utf8.allSatisfy(\.isHexDigit) {
            self = .hashPrefix(trimmed.lowercased(), image: image)
        } else {
            throw .malformed(text)
        }
    }

    /// The image number the selector is restricted to, if any.
    public var image: UInt64? {
        switch self {
        case .slot(_, let image), .version(_, let image), .hashPrefix(_, let image): return image
        }
    }

    public var description: String {
        let base: String
        switch self {
        case .slot(let slot, _): base = "slot \(slot)"
        case .version(let components, _): base = "version \(components.map(String.init).joined(separator: "."))"
        case .hashPrefix(let prefix, _): base = "hash \(prefix)"
        }
        return image.map { "\(base) of image \($0)" } ?? base
    }

    /// Whether `entry` is one this selector names.
    public func matches(_ entry: ImageSlotState) -> Bool {
        if let image, entry.image != image { return false }
        switch self {
        case .slot(let slot, _): return entry.slot == slot
        case .version(let components, _):
            guard let version = Self.versionComponents(entry.version) else { return false }
            return Self.padded(version) == Self.padded(components)
        case .hashPrefix(let prefix, _):
            return entry.hash.map { Hex.string($0).hasPrefix(prefix) } ?? false
        }
    }

    /// The one entry of `list` this selector names. Throws ``ImageSelectorError/noMatch(_:candidates:)``
    /// (with every entry as candidate) or ``ImageSelectorError/ambiguous(_:matches:)``; several
    /// matches that hold the same image (one hash) are not ambiguous: the first is returned.
    public func resolve(in list: ImageStateList) throws(ImageSelectorError) -> ImageSlotState {
        let matches = list.images.filter(matches)
        guard let first = matches.first else { throw .noMatch(self, candidates: list.images) }
        guard matches.count == 1 || (first.hash != nil && matches.allSatisfy { $0.hash == first.hash }) else {
            throw .ambiguous(self, matches: matches)
        }
        return first
    }

    /// The hash of the one entry this selector names; throws ``ImageSelectorError/noHash(_:)``
    /// when the device does not report hashes (MCUboot serial recovery).
    public func hash(in list: ImageStateList) throws(ImageSelectorError) -> [UInt8] {
        let entry = try resolve(in: list)
        guard let hash = entry.hash else { throw .noHash(entry) }
        return hash
    }

    /// `1.2.3`, `v1.2.3` or `v1` as numbers; nil for anything else (a bare number is a hash prefix).
    private static func versionComponents(_ text: String) -> [UInt64]? {
        let hasV = text.first == "v" || text.first == "V"
        let body = hasV ? text.dropFirst() : Substring(text)
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        guard (hasV || parts.count >= 2), parts.count <= 4 else { return nil }
        var components: [UInt64] = []
        for part in parts {
            guard !part.isEmpty, part.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                let value = UInt64(part)
            else { return nil }
            components.append(value)
        }
        return components
    }

    private static func padded(_ components: [UInt64]) -> [UInt64] {
        components + [UInt64](repeating: 0, count: max(0, 4 - components.count))
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
