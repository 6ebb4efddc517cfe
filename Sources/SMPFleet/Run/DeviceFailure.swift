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
    /// A few words that fit a table cell or a status line (e.g. `MGMT_ERR_ENOTSUP`), where the
    /// whole ``message`` is said once elsewhere; nil when the message is that short itself.
    public var brief: String?

    /// Creates a failure.
    public init(code: Int32, name: String, message: String, hint: String? = nil, brief: String? = nil) {
        self.code = code
        self.name = name
        self.message = message
        self.hint = hint
        self.brief = brief
    }

    /// The failure in a few words: ``brief``, else the message.
    public var summary: String { brief ?? message }
}
