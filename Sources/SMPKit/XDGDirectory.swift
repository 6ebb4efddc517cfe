/// The XDG base directories smpctl keeps files in, from the environment.
public enum XDGDirectory: Sendable {
    /// `$XDG_CACHE_HOME`, else `~/.cache`: what can be made again (a learned line pacing).
    case cache
    /// `$XDG_STATE_HOME`, else `~/.local/state`: what a user would miss (the shell history).
    case state
    /// `$XDG_CONFIG_HOME`, else `~/.config`: what a user sets (smpctl's config file and profiles).
    case config

    /// `NAME` under the directory's `smpctl` folder, e.g. `~/.cache/smpctl/NAME`; nil when neither
    /// the variable (an absolute path) nor `HOME` is set.
    public func path(of name: String, environment: [String: String]) -> String? {
        let (variable, fallback) = switch self {
        case .cache: ("XDG_CACHE_HOME", "/.cache")
        case .state: ("XDG_STATE_HOME", "/.local/state")
        case .config: ("XDG_CONFIG_HOME", "/.config")
        }
        if let base = environment[variable], base.hasPrefix("/") { return base + "/smpctl/" + name }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + fallback + "/smpctl/" + name
    }
}
