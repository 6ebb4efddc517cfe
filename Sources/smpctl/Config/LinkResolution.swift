import SMP
import SMPKit

/// The device and link settings an invocation ends up with, from its layers, highest first
/// (docs/configuration.md, "Precedence"):
///
/// 1. the command line (`-c`, `--timeout`, `--retries`, and an upload's `--window`/`--align`);
/// 2. the profile named with `-p` (a command-line choice, so it beats the environment);
/// 3. the environment: `SMPCTL_CONNECTION`, `SMPCTL_TIMEOUT`, `SMPCTL_RETRIES`;
/// 4. the profile named by `SMPCTL_PROFILE` (when `-p` is not given);
/// 5. the config file's `defaults`;
/// 6. the built-in defaults.
///
/// A connection string's own options (`?timeout=5`) belong to the layer the string came from, just
/// below that layer's separate keys. An option that the chosen transport does not take (a
/// `baud` in the defaults for a UDP connection) is left out.
struct LinkResolution: Sendable {
    /// Where a layer's settings came from.
    enum Source: Sendable, Equatable {
        case commandLine
        case profile(String)
        case environment
        case defaults
    }

    /// One layer of settings.
    struct Layer: Sendable {
        var source: Source
        var settings: ConfigSettings
    }

    /// The device, with every link option but `timeout` and `retries` (those are in ``configuration``).
    var connection: ConnectionString
    /// Timeout and retries.
    var configuration: SMPClientConfiguration
    /// The upload window and alignment below the command line.
    var window: Int?
    var align: Int?
    /// The profile in use, if any.
    var profile: String?
    /// The connection string as given, and where.
    var connectionText: String
    var connectionSource: Source
    /// Where the winning `timeout` and `retries` came from; `fromString` when it was the
    /// connection string's own option.
    var timeoutOrigin: (source: Source, fromString: Bool)?
    var retriesOrigin: (source: Source, fromString: Bool)?

    /// The environment variables for the settings (besides `SMPCTL_PROFILE` and `SMPCTL_CONFIG`).
    static let environmentOptions = [("SMPCTL_TIMEOUT", "timeout"), ("SMPCTL_RETRIES", "retries")]

    /// Resolves the layers for an invocation.
    ///
    /// - Parameters:
    ///   - commandLine: `-c`, `--timeout` and `--retries` as given.
    ///   - profileOption: `-p`, as given.
    ///   - environment: the process environment.
    ///   - store: the config file; nil when no location is known (no `HOME`).
    /// - Throws: ``CLIError`` for no device, an unknown profile, a bad config file or environment value.
    init(commandLine: ConfigSettings, profileOption: String?, environment: [String: String], store: ConfigStore?) throws(CLIError) {
        let layers = try Self.layers(commandLine: commandLine, profileOption: profileOption, environment: environment, store: store)
        profile = profileOption ?? Self.environmentProfile(environment)
        let (index, text) = try Self.connectionText(in: layers)
        var parsed: ConnectionString
        do {
            parsed = try ConnectionString(parsing: text)
        } catch {
            let variable = layers[index].source == .environment ? "SMPCTL_CONNECTION: " : ""
            throw CLIError(.usage, variable + error.description, hint: "accepted forms:\n" + error.hint)
        }
        connectionText = text
        connectionSource = layers[index].source

        // From the lowest layer up, so that a higher one overwrites.
        let transport = parsed.transport
        let taken = Set(ConnectionOptions.names(for: transport))
        var options = ConnectionOptions()
        var origins: [String: (source: Source, fromString: Bool)] = [:]
        for (position, layer) in layers.enumerated().reversed() {
            var items: [(name: String, value: String, fromString: Bool)] = []
            if position == index { items += parsed.options.items.map { ($0.name, $0.value, true) } }
            items += layer.settings.options.sorted { $0.key < $1.key }.map { ($0.key, $0.value, false) }
            for item in items where taken.contains(item.name) {
                do {
                    try options.set(item.name, to: item.value, transport: transport)
                } catch {
                    throw CLIError(.usage, "\(Self.describe(layer.source)): \(error.description)", hint: error.hint)
                }
                origins[item.name] = (layer.source, item.fromString)
            }
        }
        var configuration = SMPClientConfiguration()
        if let timeout = options.timeout { configuration.timeout = .seconds(timeout) }
        if let retries = options.retries { configuration.retries = retries }
        options.timeout = nil
        options.retries = nil
        parsed.options = options
        connection = parsed
        self.configuration = configuration
        timeoutOrigin = origins["timeout"]
        retriesOrigin = origins["retries"]
        window = layers.lazy.compactMap(\.settings.window).first
        align = layers.lazy.compactMap(\.settings.align).first
    }

    /// The layers of settings, highest first.
    static func layers(
        commandLine: ConfigSettings, profileOption: String?, environment: [String: String], store: ConfigStore?
    ) throws(CLIError) -> [Layer] {
        let file = try store?.load() ?? ConfigFile()
        var layers = [Layer(source: .commandLine, settings: commandLine)]
        if let name = profileOption {
            layers.append(Layer(source: .profile(name), settings: try Self.profile(name, in: file, store: store, via: "-p")))
        }
        layers.append(Layer(source: .environment, settings: try Self.environmentSettings(environment)))
        if profileOption == nil, let name = environmentProfile(environment) {
            layers.append(Layer(source: .profile(name), settings: try Self.profile(name, in: file, store: store, via: "SMPCTL_PROFILE")))
        }
        layers.append(Layer(source: .defaults, settings: file.defaults))
        return layers
    }

    /// The highest layer that names a device, and its connection text (a connection string, or a
    /// selector of many devices, docs/many-devices.md).
    static func connectionText(in layers: [Layer]) throws(CLIError) -> (index: Int, text: String) {
        // An empty -c (`-c "$DEVICE"` with the variable unset) names no device: it does not fall through to the layers below.
        guard let index = layers.firstIndex(where: { $0.settings.connection != nil }),
              let text = layers[index].settings.connection, !text.isEmpty
        else {
            throw CLIError(
                .usage, "no device given",
                hint: "pass -c CONNECTION or set SMPCTL_CONNECTION, e.g. -c udp:192.0.2.1, or name a saved profile with -p NAME "
                    + "(smpctl profile add NAME -c CONNECTION saves one; try the virtual device: smpctl simulate)")
        }
        return (index, text)
    }

    /// `SMPCTL_PROFILE` when set and not empty.
    private static func environmentProfile(_ environment: [String: String]) -> String? {
        environment["SMPCTL_PROFILE"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The settings of profile `name`; an unknown name is an error listing the known ones.
    private static func profile(_ name: String, in file: ConfigFile, store: ConfigStore?, via option: String) throws(CLIError) -> ConfigSettings {
        if let settings = file.profiles[name] { return settings }
        let location = store?.path ?? "the config file (no HOME or XDG_CONFIG_HOME)"
        let known = file.profileNames
        throw CLIError(
            .usage, "no profile \"\(name)\" (\(option)) in \(location)",
            hint: known.isEmpty
                ? "there are no profiles yet; add one with: smpctl profile add \(ShellQuoting.quoted(name)) -c CONNECTION"
                : "the profiles are: \(known.joined(separator: ", ")) (smpctl profile list)")
    }

    /// `SMPCTL_CONNECTION`, `SMPCTL_TIMEOUT` and `SMPCTL_RETRIES` as a layer; a bad value names its variable.
    private static func environmentSettings(_ environment: [String: String]) throws(CLIError) -> ConfigSettings {
        var settings = ConfigSettings()
        if let text = environment["SMPCTL_CONNECTION"], !text.isEmpty { settings.connection = text }
        for (variable, name) in environmentOptions {
            guard let value = environment[variable], !value.isEmpty else { continue }
            var scratch = ConnectionOptions()
            do {
                try scratch.set(name, to: value, transport: .udp)
            } catch {
                throw CLIError(.usage, "\(variable)=\(value): \(error.problem)", hint: "\(variable) takes what --\(name) takes (\(error.hint)); or unset it")
            }
            settings.options[name] = value
        }
        return settings
    }

    private static func describe(_ source: Source) -> String {
        switch source {
        case .commandLine: return "the command line"
        case .profile(let name): return "profile \"\(name)\""
        case .environment: return "the environment"
        case .defaults: return "the config file's defaults"
        }
    }

    /// The global options that reproduce this invocation's device and link settings when pasted
    /// into another shell: `-p NAME` for a profile; `-c`, `--timeout` and `--retries` for what
    /// the command line or the environment gave (the config file is still there; the environment
    /// may not be). Nothing for settings from the profile or the config file.
    var invocationArguments: [String] {
        var words: [String] = []
        if let profile { words += ["-p", profile] }
        if connectionSource == .commandLine || connectionSource == .environment { words += ["-c", connectionText] }
        if let origin = timeoutOrigin, !origin.fromString, origin.source == .commandLine || origin.source == .environment {
            words += ["--timeout", Self.seconds(configuration.timeout.milliseconds / 1000)]
        }
        if let origin = retriesOrigin, !origin.fromString, origin.source == .commandLine || origin.source == .environment {
            words += ["--retries", "\(configuration.retries)"]
        }
        return words
    }

    /// Seconds the way a person writes them: `5`, `2.5`.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }
}
