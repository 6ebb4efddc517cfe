#if canImport(Glibc)
import Glibc
#endif
import SMP

/// What a ``DTLSTransport`` says when DTLS fails: the failure in words about the device and its
/// credentials, and what to check, naming the connection-string option that fixes it. Never a key.
struct DTLSFailureWording: Sendable {
    /// `udp:HOST:PORT`.
    let endpoint: String
    /// The host as given.
    let host: String
    /// The credentials in use.
    let credentials: DTLSClientCredentials

    /// The error for credentials that cannot be used (a file missing or not PEM, a bad key file).
    static func credentialsError(_ error: DTLSCredentialsError, endpoint: String) -> SMPTransportError {
        SMPTransportError(
            .unsupportedSetting, "\(endpoint): DTLS credentials: \(error)",
            hint: "psk-file= names a file of the key's hex digits (1 to 64 bytes); ca=, cert= and key= name PEM files (the key unencrypted)")
    }

    /// The error for a DTLS failure, `duringHandshake` or on the established link.
    func error(for failure: DTLSFailure, duringHandshake: Bool) -> SMPTransportError {
        switch failure {
        case .noAnswerToHello:
            return SMPTransportError(
                .io, "\(endpoint): the device does not answer a DTLS handshake — it may run plain UDP: try without dtls=1",
                hint: "a device with CONFIG_MCUMGR_TRANSPORT_UDP_DTLS answers only after its application called smp_udp_open(); "
                    + "check the address, the port and that the device runs")
        case .noAnswerAfterFinished:
            if case .preSharedKey(let key) = credentials {
                return SMPTransportError(
                    .io, "\(endpoint): the device did not accept the PSK: unknown identity \"\(key.identity)\" or wrong key", hint: Self.pskHint)
            }
            return SMPTransportError(
                .io, "\(endpoint): the device went silent after our last handshake message: it did not accept the handshake",
                hint: "if the device asks for a client certificate, give one it trusts with cert= and key=")
        case .handshakeStalled:
            return SMPTransportError(
                .io, "\(endpoint): the device stopped answering in the middle of the DTLS handshake",
                hint: "the link may lose large datagrams: try a smaller mtu= (e.g. mtu=1280), or a longer timeout=")
        case .certificateRejected(let problem):
            return SMPTransportError(
                .io, "\(endpoint): the device's certificate failed verification: \(problem)", hint: certificateHint(problem.check))
        case .alertReceived(let alert) where duringHandshake:
            if case .preSharedKey(let key) = credentials, let refusal = pskRefusal(alert, identity: key.identity) {
                return SMPTransportError(.io, "\(endpoint): \(refusal)", hint: Self.pskHint)
            }
            return SMPTransportError(.io, "\(endpoint): the device ended the DTLS handshake: \(alert)", hint: alertHint)
        case .alertReceived(let alert):
            return SMPTransportError(.closed, "\(endpoint): the device ended the DTLS session: \(alert)")
        case .closed:
            return SMPTransportError(.closed, "\(endpoint): the device closed the DTLS session (close_notify)")
        case .protocolFailure(let reason):
            return SMPTransportError(.io, "\(endpoint): DTLS failed: \(reason)")
        }
    }

    /// What an alert during a PSK handshake says about the PSK, when it says something: Mbed TLS
    /// (Zephyr) answers an unknown identity with unknown_psk_identity (115) and a wrong key with
    /// bad_record_mac (20) after the client's Finished.
    private func pskRefusal(_ alert: DTLSAlert, identity: String) -> String? {
        switch alert.code {
        case 115: "the device does not know PSK identity \"\(identity)\""
        case 20: "the device did not accept the PSK for identity \"\(identity)\" (wrong key)"
        default: nil
        }
    }

    private static let pskHint = "give the identity and key registered on the device (TLS_CREDENTIAL_PSK_ID and TLS_CREDENTIAL_PSK under "
        + "CONFIG_MCUMGR_TRANSPORT_UDP_DTLS_TLS_TAG) with psk-id= and psk-file="

    private var alertHint: String {
        switch credentials {
        case .preSharedKey: Self.pskHint
        case .certificate: "the device may want a client certificate it trusts (cert=, key=), or share no cipher suite with OpenSSL"
        }
    }

    private func certificateHint(_ check: DTLSCertificateProblem.Check) -> String {
        switch check {
        case .expired, .notYetValid:
            return "the device needs a certificate valid now (check this computer's clock too); verify=0 skips verification, "
                + "but then anyone on the path can pose as the device"
        case .untrusted:
            return "give the CA certificate that signed the device's certificate with ca=PATH"
        case .nameMismatch:
            var address = in6_addr()
            let bare = String(host.prefix { $0 != "%" })
            let isAddress = inet_pton(AF_INET, bare, &address) == 1 || inet_pton(AF_INET6, bare, &address) == 1
            return isAddress
                ? "the certificate does not name the address \(bare): add server-name=NAME with a name it carries"
                : "the certificate does not name \(host): add server-name=NAME with the name it carries"
        case .other:
            return "check ca= and the device's certificate; verify=0 skips verification, but then anyone on the path can pose as the device"
        }
    }
}
