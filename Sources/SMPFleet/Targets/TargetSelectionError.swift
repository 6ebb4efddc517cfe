import SMPKit

/// Why a selector, a targets file or a set of targets could not become devices: what went wrong and
/// where (the message), what to do (the hint), and what kind of failure it is (the exit status).
public struct TargetSelectionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure: how the CLI exits.
    public enum Kind: String, Sendable, Hashable {
        /// A selector or connection string that cannot be parsed, or that names too many devices (exit 64).
        case usage
        /// A bad targets file: a malformed line, two lines naming one device (exit 65).
        case data
        /// The selector is fine but matches no device (exit 69).
        case notFound
        /// Discovery itself failed: no udev, no bluetoothd, no adapter (exit 69).
        case transport
    }

    /// What went wrong and where, in one line.
    public var message: String
    /// What to do about it; may span lines.
    public var hint: String?
    /// What kind of failure.
    public var kind: Kind

    /// Creates an error.
    public init(_ kind: Kind, _ message: String, hint: String? = nil) {
        self.kind = kind
        self.message = message
        self.hint = hint
    }

    /// Connection text that does not parse, as a usage error: a selector's mistake as it is worded,
    /// a connection string's as `-c` reports it, with the accepted forms.
    public init(_ error: ConnectionTextError) {
        self.init(.usage, error.message, hint: error.hint)
    }

    public var description: String { hint.map { "\(message)\n\($0)" } ?? message }

    /// The same error as found at `place` (`targets.txt:3`), with a bad entry counting as bad data.
    func located(at place: String) -> TargetSelectionError {
        TargetSelectionError(kind == .usage ? .data : kind, "\(place): \(message)", hint: hint)
    }
}
