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
struct ConfigFile: Codable, Equatable, Sendable {
    /// Settings every command uses unless a profile, the environment or the command line sets them.
    var defaults = ConfigSettings()
    /// Named settings, chosen with `-p NAME` or `SMPCTL_PROFILE`.
    var profiles: [String: ConfigSettings] = [:]

    init(defaults: ConfigSettings = ConfigSettings(), profiles: [String: ConfigSettings] = [:]) {
        self.defaults = defaults
        self.profiles = profiles
    }

    /// The sections of the file.
    static let keys = ["defaults", "profiles"]

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ConfigKey.self)
        for key in container.allKeys {
            switch key.stringValue {
            case "defaults": defaults = try container.decodeIfPresent(ConfigSettings.self, forKey: key) ?? ConfigSettings()
            case "profiles": profiles = try container.decodeIfPresent([String: ConfigSettings].self, forKey: key) ?? [:]
            default:
                throw ConfigProblem(
                    path: [key.stringValue], message: "unknown section \"\(key.stringValue)\"",
                    hint: "the file has two sections, defaults and profiles (docs/configuration.md)")
            }
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ConfigKey.self)
        if !defaults.isEmpty { try container.encode(defaults, forKey: ConfigKey("defaults")) }
        guard !profiles.isEmpty else { return }
        var section = container.nestedContainer(keyedBy: ConfigKey.self, forKey: ConfigKey("profiles"))
        for name in profileNames { try section.encode(profiles[name], forKey: ConfigKey(name)) }
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
