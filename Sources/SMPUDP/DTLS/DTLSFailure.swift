/// Why a DTLS session failed.
public enum DTLSFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The peer's certificate failed this side's verification.
    case certificateRejected(DTLSCertificateProblem)
    /// The peer ended the session with a fatal alert.
    case alertReceived(DTLSAlert)
    /// The peer never answered the ClientHello: probably no DTLS server there (plain UDP, or
    /// nothing at all).
    case noAnswerToHello
    /// The peer went silent after this side's Finished: with a pre-shared key, the peer did not
    /// accept it (unknown identity or wrong key; mbedTLS and Zephyr send no alert for either).
    case noAnswerAfterFinished
    /// The peer went silent in the middle of the handshake.
    case handshakeStalled
    /// The peer sent close_notify; nothing more can be sent or received.
    case closed
    /// The handshake or a record failed for another reason (OpenSSL's words), e.g.
    /// "peer did not return a certificate", "no shared cipher".
    case protocolFailure(String)

    /// What happened, in plain words (no secrets).
    public var description: String {
        switch self {
        case .certificateRejected(let problem): "the peer's certificate failed verification: \(problem)"
        case .alertReceived(let alert): "the peer ended the DTLS session: \(alert.description)"
        case .noAnswerToHello: "no answer to the DTLS ClientHello"
        case .noAnswerAfterFinished: "no answer after the DTLS Finished message (the peer did not accept the pre-shared key or certificate)"
        case .handshakeStalled: "the peer stopped answering during the DTLS handshake"
        case .closed: "the peer closed the DTLS session"
        case .protocolFailure(let reason): "DTLS failed: \(reason)"
        }
    }
}

/// A TLS alert: its code and OpenSSL's long description of it ("handshake failure",
/// "unknown PSK identity", "bad certificate").
public struct DTLSAlert: Sendable, Equatable, CustomStringConvertible {
    /// The alert description code (RFC 5246 section 7.2).
    public var code: UInt8
    /// OpenSSL's long description.
    public var description: String

    /// An alert.
    public init(code: UInt8, description: String) {
        self.code = code
        self.description = description
    }
}

/// A certificate that failed verification: which check failed, OpenSSL's reason, and what the
/// certificate says of itself.
public struct DTLSCertificateProblem: Sendable, Equatable, CustomStringConvertible {
    /// Which check failed.
    public enum Check: Sendable, Equatable {
        /// Its validity period ended.
        case expired
        /// Its validity period has not begun.
        case notYetValid
        /// No trusted certificate authority signed it (unknown or self-signed issuer).
        case untrusted
        /// It does not carry the expected DNS name or IP address.
        case nameMismatch
        /// Another check (see ``DTLSCertificateProblem/reason``).
        case other
    }

    /// Which check failed.
    public var check: Check
    /// OpenSSL's reason, e.g. "certificate has expired", "unable to get local issuer certificate".
    public var reason: String
    /// The certificate's subject, e.g. `CN=smp-device`.
    public var subject: String
    /// Its issuer, e.g. `CN=smpctl test CA`.
    public var issuer: String
    /// Start of its validity, e.g. `2026-11-26 10:00:00 UTC`.
    public var notBefore: String
    /// End of its validity.
    public var notAfter: String

    /// A problem report.
    public init(check: Check, reason: String, subject: String, issuer: String, notBefore: String, notAfter: String) {
        self.check = check
        self.reason = reason
        self.subject = subject
        self.issuer = issuer
        self.notBefore = notBefore
        self.notAfter = notAfter
    }

    /// `REASON (subject S, issuer I, valid FROM to TO)`.
    public var description: String {
        "\(reason) (subject \(subject), issuer \(issuer), valid \(notBefore) to \(notAfter))"
    }
}
