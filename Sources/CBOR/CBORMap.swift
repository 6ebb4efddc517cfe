/// The entries of a CBOR map, in wire order.
///
/// Duplicate keys are kept (lookups return the first); the encoder writes the entries in order,
/// so a map built from a literal is encoded deterministically.
public struct CBORMap: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    /// One key/value pair.
    public struct Entry: Sendable, Hashable {
        /// The key.
        public var key: CBOR
        /// The value.
        public var value: CBOR

        /// Creates an entry.
        public init(key: CBOR, value: CBOR) {
            self.key = key
            self.value = value
        }
    }

    /// The entries in order.
    public private(set) var entries: [Entry]

    /// An empty map.
    public init() { entries = [] }

    /// A map of these entries, in this order.
    public init(_ entries: [Entry]) { self.entries = entries }

    /// A map from key/value pairs, in this order.
    public init(dictionaryLiteral elements: (CBOR, CBOR)...) {
        entries = elements.map { Entry(key: $0.0, value: $0.1) }
    }

    public var startIndex: Int { entries.startIndex }
    public var endIndex: Int { entries.endIndex }
    public subscript(position: Int) -> Entry { entries[position] }

    /// The value of the first entry whose key is the text `key`; setting replaces it or appends.
    public subscript(key: String) -> CBOR? {
        get { self[CBOR.text(key)] }
        set { self[CBOR.text(key)] = newValue }
    }

    /// The value of the first entry with this key; setting replaces it, appends, or (nil) removes it.
    public subscript(key: CBOR) -> CBOR? {
        get { entries.first { $0.key == key }?.value }
        set {
            let index = entries.firstIndex { $0.key == key }
            switch (index, newValue) {
            case (let i?, let v?): entries[i].value = v
            case (let i?, nil): entries.remove(at: i)
            case (nil, let v?): entries.append(Entry(key: key, value: v))
            case (nil, nil): break
            }
        }
    }

    /// Appends an entry without looking for an existing key.
    public mutating func append(key: CBOR, value: CBOR) {
        entries.append(Entry(key: key, value: value))
    }

    /// The keys that occur more than once, in order of first repetition.
    public var duplicateKeys: [CBOR] {
        var seen = Set<CBOR>()
        var repeated: [CBOR] = []
        for entry in entries where !seen.insert(entry.key).inserted && !repeated.contains(entry.key) {
            repeated.append(entry.key)
        }
        return repeated
    }
}
