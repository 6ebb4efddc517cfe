/// A plain-text table with aligned columns.
struct Table {
    /// Column alignment.
    enum Alignment { case left, right }

    let headers: [String]
    let alignments: [Alignment]
    var rows: [[String]] = []

    init(_ headers: [String], alignments: [Alignment]? = nil) {
        self.headers = headers
        self.alignments = alignments ?? headers.map { _ in .left }
    }

    mutating func add(_ row: [String]) { rows.append(row) }

    var rendered: String {
        let all = [headers] + rows
        let widths = headers.indices.map { column in all.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0 }
        return all.map { row in
            headers.indices.map { column in
                let cell = row.indices.contains(column) ? row[column] : ""
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return alignments[column] == .right ? padding + cell : cell + padding
            }.joined(separator: "  ").trimmingTrailingSpaces
        }.joined(separator: "\n")
    }
}

/// Aligned "name: value" lines.
func keyValueLines(_ pairs: [(String, String)]) -> String {
    let width = pairs.map { $0.0.count }.max() ?? 0
    return pairs.map { $0.0 + ":" + String(repeating: " ", count: width - $0.0.count + 1) + $0.1 }.joined(separator: "\n")
}

extension String {
    var trimmingTrailingSpaces: String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
