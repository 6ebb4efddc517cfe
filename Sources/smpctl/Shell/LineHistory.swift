/// The lines entered so far, newest last, bounded, with a browsing position for up/down.
struct LineHistory: Equatable {
    /// The most entries kept.
    let limit: Int
    /// The entries, oldest first.
    private(set) var entries: [String]

    /// Creates a history holding the newest `limit` of `entries`.
    init(entries: [String] = [], limit: Int = 1000) {
        self.limit = max(1, limit)
        self.entries = Array(entries.suffix(self.limit))
    }

    /// Adds a line unless it is blank or repeats the newest entry; the oldest entries go when
    /// the limit is passed.
    mutating func add(_ line: String) {
        guard !line.allSatisfy(\.isWhitespace), entries.last != line else { return }
        entries.append(line)
        if entries.count > limit { entries.removeFirst(entries.count - limit) }
    }
}
