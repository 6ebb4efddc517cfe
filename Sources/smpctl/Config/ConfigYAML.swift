/// The config file's YAML tree read by hand (``ConfigFile/init(node:)``): each key once, in the
/// file's order, so that reading takes time in proportion to the file (a decoder that looks each
/// key up with a linear search made reading 20,000 profiles take a minute and a half).
extension YAMLNode {
    /// A mapping's keys as text, with their values, in the file's order. What a merge key
    /// (`<<: *base`) brings comes first, so that the mapping's own keys win, as YAML's merge type
    /// has it.
    ///
    /// - Parameter path: where the mapping is in the file (`["profiles", "lab"]`), for a problem.
    /// - Throws: ``ConfigProblem`` when this is not a mapping, or a key is not text.
    func configPairs(at path: [String]) throws(ConfigProblem) -> [(key: String, value: YAMLNode)] {
        guard let mapping else { throw ConfigProblem(path: path, message: "expected a mapping of keys to values") }
        ConfigStore.keysRead.withLock { $0 += mapping.count }
        var merged: [(key: String, value: YAMLNode)] = []
        var own: [(key: String, value: YAMLNode)] = []
        own.reserveCapacity(mapping.count)
        for (key, value) in mapping {
            guard let text = key.scalar else {
                throw ConfigProblem(path: path, message: "a key must be text, not a \(key.mapping == nil ? "list" : "mapping")")
            }
            if key.isMergeKey {
                for source in value.sequence.map({ Array($0.reversed()) }) ?? [value] { merged += try source.configPairs(at: path) }
            } else {
                own.append((text, value))
            }
        }
        return merged + own
    }

    /// A value as text, as a connection string has it (`timeout: 5` is "5").
    ///
    /// - Throws: ``ConfigProblem`` at `path` when this is a mapping or a list.
    func configText(at path: [String]) throws(ConfigProblem) -> String {
        guard let scalar else { throw ConfigProblem(path: path, message: "expected a text value") }
        return scalar
    }

    /// A whole number, in any of YAML's notations (`8`, `0x10`, `1_000`).
    ///
    /// - Throws: ``ConfigProblem`` at `path` when this is not one.
    func configWholeNumber(at path: [String]) throws(ConfigProblem) -> Int {
        guard let number = int else { throw ConfigProblem(path: path, message: "expected a whole number") }
        return number
    }
}
