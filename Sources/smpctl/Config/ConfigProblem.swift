/// Something wrong in the config file: where (the keys leading to it), what, and what to do.
struct ConfigProblem: Error, Sendable {
    /// The keys from the top of the file to the offending one (`["profiles", "lab", "bud"]`).
    var path: [String]
    /// What is wrong.
    var message: String
    /// What to do about it.
    var hint: String?

    init(path: [String], message: String, hint: String? = nil) {
        self.path = path
        self.message = message
        self.hint = hint
    }

    /// The path as a person reads it: `profiles.lab.bud`.
    var keyPath: String { path.joined(separator: ".") }
}
