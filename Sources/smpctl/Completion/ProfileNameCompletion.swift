/// The profile names offered when completing `-p`.
enum ProfileNameCompletion {
    /// The profile names of the config file the environment selects (``ConfigStore/standard(environment:)``),
    /// sorted; none when there is no file or it cannot be read, so that a Tab press never fails.
    static func names(environment: [String: String]) -> [String] {
        guard let store = ConfigStore.standard(environment: environment), let file = try? store.load() else { return [] }
        return file.profileNames
    }
}
