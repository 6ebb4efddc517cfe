/// A failure of the link itself (as opposed to an error answered by the device).
public struct SMPTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure, which decides the tool's exit code.
    public enum Kind: Sendable, Hashable {
        /// The endpoint could not be found (unknown host, no such port or device).
        case notFound
        /// The endpoint refused (ICMP port unreachable: nothing listening).
        case refused
        /// Permission was denied.
        case permissionDenied
        /// The link was closed, by us or by the device going away.
        case closed
        /// The transport is not available in this build or on this system.
        case unavailable
        /// Any other input/output failure.
        case io
        /// The link refused a setting that was asked for (a baud rate the serial adapter cannot
        /// make): a problem with the value given, not with reaching the device.
        case unsupportedSetting
    }

    /// The kind of failure.
    public var kind: Kind
    /// What happened, where.
    public var message: String
    /// What to try, if there is something to suggest.
    public var hint: String?
    /// A further step that a front end names in its own terms (smpctl names its command).
    public var nextStep: SMPNextStep?

    /// Creates an error.
    public init(_ kind: Kind, _ message: String, hint: String? = nil, nextStep: SMPNextStep? = nil) {
        self.kind = kind
        self.message = message
        self.hint = hint
        self.nextStep = nextStep
    }

    /// The ``hint`` and the ``nextStep`` in the library's words.
    public var advice: String? {
        let parts = [hint, nextStep?.description].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    public var description: String { advice.map { "\(message) (\($0))" } ?? message }
}
