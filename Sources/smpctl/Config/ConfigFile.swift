/// smpctl's config file: defaults for every command and named profiles (docs/configuration.md).
///
/// ```yaml
/// defaults:
///   timeout: 5
/// profiles:
///   lab:
///     connection: serial:/dev/ttyACM0
///     baud: 1000000
///     window: 8
/// ```
struct ConfigFile: Equatable, Sendable {
    /// Settings every command uses unless a profile, the environment or the command line sets them.
    var defaults = ConfigSettings()
    /// Named settings, chosen with `-p NAME` or `SMPCTL_PROFILE`.
    var profiles: [String: ConfigSettings] = [:]

    init(defaults: ConfigSettings = ConfigSettings(), profiles: [String: ConfigSettings] = [:]) {
        self.defaults = defaults
        self.profiles = profiles
    }

    /// Reads the file's YAML tree (``YAMLReader``) in one pass (see ``YAMLNode/configPairs(at:)``);
    /// a section given as null (`profiles:` with nothing after it) is empty.
    ///
    /// - Throws: ``ConfigProblem`` at the first key that is not a section or a settings key, or
    ///   whose value is not of the key's kind. The values are checked by ``validate()``.
    init(node: YAMLNode) throws(ConfigProblem) {
        for (key, value) in try node.configPairs(at: []) {
            switch key {
            case "defaults":
                defaults = value.isNull ? ConfigSettings() : try ConfigSettings(node: value, at: ["defaults"])
            case "profiles":
                profiles = [:]
                guard !value.isNull else { continue }
                for (name, settings) in try value.configPairs(at: ["profiles"]) {
                    profiles[name] = try ConfigSettings(node: settings, at: ["profiles", name])
                }
            default:
                throw ConfigProblem(
                    path: [key], message: "unknown section \"\(key)\"", hint: "the file has two sections, defaults and profiles (docs/configuration.md)")
            }
        }
    }

    /// The file's YAML tree, for ``YAMLWriter``: the defaults unless empty, then the profiles
    /// by name, each with its keys in ``ConfigSettings/keys`` order.
    var node: YAMLNode {
        var sections: [(YAMLNode, YAMLNode)] = []
        if !defaults.isEmpty { sections.append((YAMLNode("defaults"), defaults.node)) }
        if !profiles.isEmpty {
            sections.append((YAMLNode("profiles"), YAMLNode(profiles.sorted { $0.key < $1.key }.map { (YAMLNode($0.key), $0.value.node) })))
        }
        return YAMLNode(sections)
    }

    /// The profile names in order.
    var profileNames: [String] { profiles.keys.sorted() }

    /// Checks every value (see ``ConfigSettings/validate(at:)``) and every profile name.
    func validate() throws(ConfigProblem) {
        try defaults.validate(at: ["defaults"])
        for name in profileNames {
            if let problem = Self.problem(withName: name) {
                throw ConfigProblem(path: ["profiles", name], message: "profile name \"\(name)\": \(problem)", hint: Self.nameRule)
            }
            try profiles[name]?.validate(at: ["profiles", name])
        }
    }

    /// What a profile name must look like.
    static let nameRule = "a profile name is letters, digits, '.', '_' and '-', starting with a letter or digit"

    /// What is wrong with `name` as a profile name; nil when it is fine.
    static func problem(withName name: String) -> String? {
        guard let first = name.unicodeScalars.first else { return "it is empty" }
        let allowed = name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0)) }
        guard allowed, first.properties.isAlphabetic || ("0"..."9").contains(first) else { return "not allowed" }
        return nil
    }
}
