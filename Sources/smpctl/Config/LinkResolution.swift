import SMPFleet
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

    /// One layer of settings: the config file's and the environment's as written, the command
    /// line's `--timeout` and `--retries` as parsed.
    struct Layer: Sendable {
        var source: Source
        var settings: ConfigSettings
        /// `--timeout`, in seconds.
        var timeout: Double?
        /// `--retries`.
        var retries: Int?

        init(source: Source, settings: ConfigSettings, timeout: Double? = nil, retries: Int? = nil) {
            self.source = source
            self.settings = settings
            self.timeout = timeout
            self.retries = retries
        }
    }

    /// The device, with every link option, `timeout` and `retries` included: ``SMPConnection``
    /// makes them the client's configuration when it opens the connection.
    var connection: ConnectionString
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

    /// Resolves the layers for an invocation, reading the config file in `store`.
    ///
    /// - Parameters:
    ///   - commandLine: `-c`, `--timeout` and `--retries` as given.
    ///   - profileOption: `-p`, as given.
    ///   - environment: the process environment.
    ///   - store: the config file; nil when no location is known (no `HOME`).
    /// - Throws: ``CLIError`` for no device, an unknown profile, a bad config file or environment value.
    init(commandLine: ConfigSettings, profileOption: String?, environment: [String: String], store: ConfigStore?) throws(CLIError) {
        let layers = try Self.layers(
            commandLine: Layer(source: .commandLine, settings: commandLine), profileOption: profileOption, environment: environment,
            config: ConfigLoader(store: store))
        try self.init(layers: layers, profile: profileOption ?? Self.environmentProfile(environment))
    }

    /// Resolves `layers` (highest first) for the connection they name; `profile` is the one in use.
    ///
    /// - Throws: ``CLIError`` for no device, a bad connection string or option value.
    init(layers: [Layer], profile: String?) throws(CLIError) {
        let text = try Self.connectionText(in: layers).text
        try self.init(layers: layers, profile: profile, parsed: Result { () throws(ConnectionStringError) in try ConnectionString(parsing: text) })
    }

    /// Resolves `layers` (highest first) for the connection they name, parsed already (`parsed`:
    /// the one device, or the mistake in its text, reported naming where the text came from).
    init(layers: [Layer], profile: String?, parsed: Result<ConnectionString, ConnectionStringError>) throws(CLIError) {
        let (index, text) = try Self.connectionText(in: layers)
        switch parsed {
        case .success(let connection):
            try self.init(layers: layers, profile: profile, connection: connection, text: text, at: index)
        case .failure(let error):
            let variable = layers[index].source == .environment ? "SMPCTL_CONNECTION: " : ""
            throw CLIError(.usage, variable + error.description, hint: "accepted forms:\n" + error.hint)
        }
    }

    /// Resolves `layers` (highest first) for `target`, one of many devices: its connection takes
    /// the place of `-c`, so that the layers give it their settings as they would to `-c`.
    init(layers: [Layer], profile: String?, target: DeviceTarget) throws(CLIError) {
        try self.init(layers: layers, profile: profile, connection: target.connection, text: target.connection.description, at: 0)
    }

    /// `connection` (given as `text` in layer `index`) with the settings of every layer: its own
    /// options as parsed, a layer's keys over the layers below, the string's own options over the
    /// layers below its layer (whose values for them are still checked).
    private init(layers: [Layer], profile: String?, connection parsed: ConnectionString, text: String, at index: Int) throws(CLIError) {
        self.profile = profile
        connectionText = text
        connectionSource = layers[index].source
        let transport = parsed.transport
        let taken = Set(ConnectionOptions.names(for: transport))
        var options = parsed.options
        let own = Set(parsed.options.items.map(\.name))
        var origins: [String: (source: Source, fromString: Bool)] = [:]
        for name in own { origins[name] = (layers[index].source, true) }
        // From the lowest layer up, so that a higher one overwrites.
        for (position, layer) in layers.enumerated().reversed() {
            for (name, value) in layer.settings.options.sorted(by: { $0.key < $1.key }) where taken.contains(name) {
                if position > index && own.contains(name) {
                    var outranked = ConnectionOptions()
                    try Self.set(name, to: value, in: &outranked, transport: transport, from: layer.source)
                } else {
                    try Self.set(name, to: value, in: &options, transport: transport, from: layer.source)
                    origins[name] = (layer.source, false)
                }
            }
            if let timeout = layer.timeout {
                options.timeout = timeout
                origins["timeout"] = (layer.source, false)
            }
            if let retries = layer.retries {
                options.retries = retries
                origins["retries"] = (layer.source, false)
            }
        }
        if let mistake = options.dtls.mistake {
            // The string's own options make sense (the parser checks them): a layer's keys changed them.
            let adding = layers.filter { !Set($0.settings.options.keys).isDisjoint(with: DTLSOptions.names) }
            throw CLIError(
                .usage, "\(ConnectionSecrets.redacted(text)) with the DTLS settings of \(adding.map { Self.describe($0.source) }.joined(separator: ", ")): "
                    + mistake.problem,
                hint: "accepted forms:\n" + mistake.hint)
        }
        var connection = parsed
        connection.options = options
        self.connection = connection
        timeoutOrigin = origins["timeout"]
        retriesOrigin = origins["retries"]
        (window, align) = Self.transferDefaults(in: layers)
    }

    /// The upload window and alignment that the highest layers setting them give: a profile's,
    /// else the config file's defaults. They hold for one device and for many alike.
    static func transferDefaults(in layers: [Layer]) -> (window: Int?, align: Int?) {
        (layers.lazy.compactMap(\.settings.window).first, layers.lazy.compactMap(\.settings.align).first)
    }

    /// Sets option `name` of `options` to `value` from a layer; a bad value is an error naming the layer.
    private static func set(
        _ name: String, to value: String, in options: inout ConnectionOptions, transport: Transport, from source: Source
    ) throws(CLIError) {
        do {
            try options.set(name, to: value, transport: transport)
        } catch {
            throw CLIError(.usage, "\(describe(source)): \(error.description)", hint: error.hint)
        }
    }

    /// The layers of settings, highest first.
    /// `config` gives the config file, read at most once.
    static func layers(
        commandLine: Layer, profileOption: String?, environment: [String: String], config: ConfigLoader
    ) throws(CLIError) -> [Layer] {
        let file = try config.file()
        var layers = [commandLine]
        if let name = profileOption {
            layers.append(Layer(source: .profile(name), settings: try Self.profile(name, in: file, location: config.location, via: "-p")))
        }
        layers.append(Layer(source: .environment, settings: try Self.environmentSettings(environment)))
        if profileOption == nil, let name = environmentProfile(environment) {
            layers.append(Layer(source: .profile(name), settings: try Self.profile(name, in: file, location: config.location, via: "SMPCTL_PROFILE")))
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
    static func environmentProfile(_ environment: [String: String]) -> String? {
        environment["SMPCTL_PROFILE"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The settings of profile `name`; an unknown name is an error listing the known ones.
    private static func profile(_ name: String, in file: ConfigFile, location: String, via option: String) throws(CLIError) -> ConfigSettings {
        if let settings = file.profiles[name] { return settings }
        throw file.unknownProfile(name, where: "(\(option)) in \(location)")
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
        if let timeout = connection.options.timeout, let origin = timeoutOrigin, !origin.fromString,
           origin.source == .commandLine || origin.source == .environment {
            words += ["--timeout", Self.seconds(timeout)]
        }
        if let retries = connection.options.retries, let origin = retriesOrigin, !origin.fromString,
           origin.source == .commandLine || origin.source == .environment {
            words += ["--retries", "\(retries)"]
        }
        return words
    }

    /// Seconds the way a person writes them: `5`, `2.5`.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }
}
