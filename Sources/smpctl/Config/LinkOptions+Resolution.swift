import FoundationEssentials

extension LinkOptions {
    /// The layers of settings for this invocation resolved (``LinkResolution``).
    func resolution(environment: [String: String] = ProcessInfo.processInfo.environment) throws(CLIError) -> LinkResolution {
        var commandLine = ConfigSettings(connection: connection)
        if let timeout { commandLine.options["timeout"] = LinkResolution.seconds(timeout) }
        if let retries { commandLine.options["retries"] = "\(retries)" }
        return try LinkResolution(
            commandLine: commandLine, profileOption: profile, environment: environment, store: ConfigStore.standard(environment: environment))
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
