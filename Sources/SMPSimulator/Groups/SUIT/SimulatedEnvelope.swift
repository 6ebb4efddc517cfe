import CBOR
import SMP

/// A SUIT envelope as the simulated device checks it: CBOR tag 107 around a map whose
/// authentication wrapper (key 2) holds `[-16, SHA-256]` of the bstr-wrapped manifest (key 3,
/// the whole encoded byte string). Signatures are not checked.
struct SimulatedEnvelope: Sendable, Hashable {
    /// The manifest digest (what manifest state reports once installed).
    var digest: [UInt8]
    /// The manifest's sequence number (key 2), when it has one.
    var sequenceNumber: UInt64?
    /// Every `file://` URI the manifest mentions, in order of appearance, each once.
    var resourceURIs: [String]

    /// Checks an envelope; nil when it is not one this device accepts.
    init?(_ bytes: [UInt8]) {
        guard case .tagged(107, .map(let envelope))? = Self.decode(bytes),
              case .bytes(let wrapperBytes)? = envelope[.unsigned(2)],
              case .array(let blocks)? = Self.decode(wrapperBytes),
              case .bytes(let digestBytes)? = blocks.first,
              case .array(let pair)? = Self.decode(digestBytes), pair.count == 2,
              pair[0].int64Value == -16, case .bytes(let digest) = pair[1],
              let manifestItem = envelope[.unsigned(3)], case .bytes(let manifestBytes) = manifestItem,
              SHA256Hash.digest(manifestItem.encoded()) == digest,
              case .map(let manifest)? = Self.decode(manifestBytes)
        else { return nil }
        self.digest = digest
        sequenceNumber = manifest[.unsigned(2)]?.uint64Value
        var uris: [String] = []
        Self.collectURIs(in: .map(manifest), depth: 0, into: &uris)
        resourceURIs = uris
    }

    private static func decode(_ bytes: [UInt8]) -> CBOR? {
        try? CBORDecoder(maximumDepth: 32, allowTrailingBytes: false).decode(bytes)
    }

    /// Walks the manifest, opening byte strings that hold CBOR (command sequences are wrapped).
    private static func collectURIs(in item: CBOR, depth: Int, into uris: inout [String]) {
        guard depth < 16 else { return }
        switch item {
        case .text(let text) where text.lowercased().hasPrefix("file://"):
            if !uris.contains(text) { uris.append(text) }
        case .bytes(let bytes):
            if let inner = decode(bytes) { collectURIs(in: inner, depth: depth + 1, into: &uris) }
        case .array(let items):
            for element in items { collectURIs(in: element, depth: depth + 1, into: &uris) }
        case .map(let map):
            for entry in map { collectURIs(in: entry.value, depth: depth + 1, into: &uris) }
        case .tagged(_, let inner):
            collectURIs(in: inner, depth: depth + 1, into: &uris)
        default:
            break
        }
    }
}
