import FoundationEssentials

/// The profile names offered when completing `-p`.
///
/// The profiles live in `$XDG_CONFIG_HOME/smpctl/config.yaml` (else `~/.config/smpctl/config.yaml`)
/// under a top-level `profiles:` map. This reads only the map's keys, line by line, so that a Tab
/// press never fails on the rest of the file; ``names(environment:)`` is the one place to point at
/// the config file's own reader.
enum ProfileNameCompletion {
    /// The profile names in the config file, in file order; none when it is missing or unreadable.
    static func names(environment: [String: String]) -> [String] {
        guard let path = configFile(environment: environment),
              let data = FileManager.default.contents(atPath: path)
        else { return [] }
        return names(inYAML: String(decoding: data, as: UTF8.self))
    }

    /// The config file's path; nil when neither `XDG_CONFIG_HOME` (an absolute path) nor `HOME` is set.
    static func configFile(environment: [String: String]) -> String? {
        if let base = environment["XDG_CONFIG_HOME"], base.hasPrefix("/") { return base + "/smpctl/config.yaml" }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.config/smpctl/config.yaml"
    }

    /// The keys of the top-level `profiles:` map of a block-style YAML document.
    static func names(inYAML text: String) -> [String] {
        var names: [String] = []
        var inProfiles = false
        var keyIndent: Int?
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let content = line.drop { $0 == " " }
            if content.isEmpty || content.hasPrefix("#") { continue }
            let indent = line.count - content.count
            if indent == 0 {
                inProfiles = content.hasPrefix("profiles:")
                keyIndent = nil
                continue
            }
            guard inProfiles, indent == (keyIndent ?? indent), let colon = content.firstIndex(of: ":") else { continue }
            keyIndent = indent
            let key = content[..<colon].trimmingCharacters(in: .whitespaces)
            let unquoted = key.count >= 2 && (key.first == "\"" || key.first == "'") && key.last == key.first ? String(key.dropFirst().dropLast()) : key
            if !unquoted.isEmpty { names.append(unquoted) }
        }
        return names
    }
}
