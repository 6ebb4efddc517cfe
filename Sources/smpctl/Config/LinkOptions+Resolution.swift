extension LinkOptions {
    /// `-c`, `--timeout` and `--retries` as the command line gave them: the highest layer of
    /// settings (``LinkResolution``), the numbers as parsed.
    var commandLineLayer: LinkResolution.Layer {
        LinkResolution.Layer(source: .commandLine, settings: ConfigSettings(connection: connection), timeout: timeout, retries: retries)
    }

    /// `-p`, `-c`, `--timeout` and `--retries` as given, for a pasted command line when the
    /// settings do not resolve to one device.
    var givenArguments: [String] {
        var words: [String] = []
        if let profile { words += ["-p", profile] }
        if let connection { words += ["-c", connection] }
        if let timeout { words += ["--timeout", LinkResolution.seconds(timeout)] }
        if let retries { words += ["--retries", "\(retries)"] }
        return words
    }
}
