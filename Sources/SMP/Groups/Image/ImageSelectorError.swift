/// Why an ``ImageSelector`` could not be read or did not name exactly one image.
public enum ImageSelectorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text is neither `slot:N`, a version nor a hash prefix of at least 4 hex digits.
    case malformed(String)
    /// No listed image matches; `candidates` is the whole list.
    case noMatch(ImageSelector, candidates: [ImageSlotState])
    /// More than one listed image (with different hashes) matches.
    case ambiguous(ImageSelector, matches: [ImageSlotState])
    /// The image matched, but the device does not report its hash.
    case noHash(ImageSlotState)

    /// The images worth showing with the message: the matches or the whole list.
    public var candidates: [ImageSlotState] {
        switch self {
        case .malformed: return []
        case .noMatch(_, let candidates): return candidates
        case .ambiguous(_, let matches): return matches
        case .noHash(let entry): return [entry]
        }
    }

    public var description: String {
        switch self {
        case .malformed(let text):
            return "\(text) does not name an image: expected slot:N, a version (1.2.3 or v1.2.3) "
                + "or at least \(ImageSelector.minimumHashPrefixLength) hex digits of its hash"
        case .noMatch(let selector, let candidates):
            return candidates.isEmpty ? "no image matches \(selector): the device lists no images" : "no image matches \(selector)"
        case .ambiguous(let selector, let matches):
            return "\(selector) is ambiguous: \(matches.count) images match"
        case .noHash(let entry):
            return "the device does not report the hash of image \(entry.image) slot \(entry.slot), so it cannot be named by it"
        }
    }
}
