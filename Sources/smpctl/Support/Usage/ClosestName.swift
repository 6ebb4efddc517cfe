/// The valid name a mistyped one most likely meant: `lst` → `list`, `--ofset` → `--offset`.
enum ClosestName {
    /// The candidate nearest to `typed` (fewest single-character edits, or the one `typed` begins),
    /// if one is near enough to suggest.
    static func to(_ typed: String, among candidates: [String]) -> String? {
        let typed = Array(typed.lowercased())
        let scored = candidates.map { candidate -> (String, Int) in
            let name = Array(candidate.lowercased())
            let prefix = typed.count >= 2 && name.starts(with: typed)
            return (candidate, prefix ? 1 : distance(typed, name))
        }
        let limit = max(1, min(3, typed.count / 3))
        return scored.filter { $0.1 <= limit }.min { $0.1 < $1.1 }?.0
    }

    /// The Levenshtein distance (insertions, deletions, substitutions; a swap of neighbours counts one).
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + [Int](repeating: 0, count: b.count)
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            previous2 = previous
            previous = current
        }
        return previous[b.count]
    }
}
