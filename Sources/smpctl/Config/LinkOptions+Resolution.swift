import FoundationEssentials

extension LinkOptions {
    /// The layers of settings for this invocation resolved (``LinkResolution``).
    func resolution(environment: [String: String] = ProcessInfo.processInfo.environment) throws(CLIError) -> LinkResolution {
        try LinkResolution(
            commandLine: commandLineSettings, profileOption: profile, environment: environment, store: ConfigStore.standard(environment: environment))
    }

    /// The connection text this invocation names, from the command line, a profile, the environment
    /// or the config file, not yet parsed: a connection string, or a selector of many devices.
    func connectionText(environment: [String: String] = ProcessInfo.processInfo.environment) throws(CLIError) -> String {
        let layers = try LinkResolution.layers(
            commandLine: commandLineSettings, profileOption: profile, environment: environment, store: ConfigStore.standard(environment: environment))
        return try LinkResolution.connectionText(in: layers).text
    }

    /// `-c`, `--timeout` and `--retries` as the command line gave them.
    private var commandLineSettings: ConfigSettings {
        var commandLine = ConfigSettings(connection: connection)
        if let timeout { commandLine.options["timeout"] = LinkResolution.seconds(timeout) }
        if let retries { commandLine.options["retries"] = "\(retries)" }
        return commandLine
    }

    /// The upload window a profile or the config file's defaults give (`fs put`/`fs get` take it too).
    var configuredWindow: Int? { (try? resolution())?.window }

    /// The global options that reach the same device with the same settings when pasted into
    /// another shell (``LinkResolution/invocationArguments``); when the settings do not resolve,
    /// the options as given.
    var invocationArguments: [String] {
        if let resolved = try? resolution() { return resolved.invocationArguments }
        var words: [String] = []
        if let profile { words += ["-p", profile] }
        if let connection { words += ["-c", connection] }
        if let timeout { words += ["--timeout", LinkResolution.seconds(timeout)] }
        if let retries { words += ["--retries", "\(retries)"] }
        return words
    }
}
