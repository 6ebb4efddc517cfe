/// Why a device failed, in the terms a report and an exit status need. The caller of
/// ``FleetRun/run(configuration:logger:operation:failure:events:)`` turns errors into failures,
/// so that the library does not need to know the CLI's exit codes.
public struct DeviceFailure: Sendable, Hashable {
    /// The exit status this failure alone would give (e.g. 69 for a transport error).
    public var code: Int32
    /// A short name for the kind of failure (e.g. `transport-error`).
    public var name: String
    /// What happened, for people.
    public var message: String
    /// What to try, if anything.
    public var hint: String?

    /// Creates a failure.
    public init(code: Int32, name: String, message: String, hint: String? = nil) {
        self.code = code
        self.name = name
        self.message = message
        self.hint = hint
    }
}
