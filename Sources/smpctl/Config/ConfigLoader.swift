import Synchronization

/// The config file of one invocation, read when first needed and never again: every layer,
/// profile and targets-file line of the invocation uses the same reading (or the same error).
final class ConfigLoader: Sendable {
    /// The file; nil when no location is known (no `HOME`).
    let store: ConfigStore?
    private let loaded = Mutex<Result<ConfigFile, CLIError>?>(nil)

    init(store: ConfigStore?) {
        self.store = store
    }

    /// Where the file is, for messages.
    var location: String { store?.path ?? "the config file (no HOME or XDG_CONFIG_HOME)" }

    /// The file's settings, read on the first call; without a location, an empty configuration.
    ///
    /// - Throws: ``CLIError`` for a file that cannot be read or is not valid (``ConfigStore/load()``).
    func file() throws(CLIError) -> ConfigFile {
        let result = loaded.withLock { loaded in
            if let loaded { return loaded }
            let result = Result { () throws(CLIError) in try store?.load() ?? ConfigFile() }
            loaded = result
            return result
        }
        return try result.get()
    }
}
