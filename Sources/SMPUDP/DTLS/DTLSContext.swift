#if canImport(Glibc)
import Glibc
#endif
import COpenSSL

/// OpenSSL's DTLS configuration for one role and one set of credentials, loaded and checked once
/// and shared by every ``DTLSSession`` made from it (a server makes one session per peer).
///
/// DTLS 1.2 at least; OpenSSL's DEFAULT cipher suites plus `PSK-AES128-CCM8` and `PSK-AES128-CCM`
/// (what mbedTLS and Zephyr pre-shared key setups use). A server asks every new client for a
/// HelloVerifyRequest cookie, as Zephyr's DTLS server does.
public final class DTLSContext: @unchecked Sendable {
    // @unchecked: every stored property is set in init and never changed; OpenSSL allows SSL_new
    // on one SSL_CTX from several threads once it is configured.

    /// Which end of the handshake sessions made from a context play.
    public enum Role: Sendable, Equatable {
        /// Sends the ClientHello.
        case client
        /// Answers it.
        case server
    }

    /// Which end sessions made from this context play.
    public let role: Role
    /// The SSL_CTX.
    let pointer: OpaquePointer
    /// The pre-shared key, if that is the credential.
    let preSharedKey: DTLSPreSharedKey?
    /// The DNS name or IP address the server's certificate must carry (client, verifying).
    let peerName: String?
    /// Random bytes mixed into a server's cookies.
    let cookieSecret: [UInt8]

    /// The cipher suites offered and accepted: OpenSSL's DEFAULT written out (`ALL:!COMPLEMENTOFDEFAULT:!eNULL`),
    /// with `-` for the complement so that the two CCM suites, which it holds, can be added back.
    static let cipherList = "ALL:-COMPLEMENTOFDEFAULT:!eNULL:PSK-AES128-CCM8:PSK-AES128-CCM"

    /// A client context; loads and checks the credential files now.
    public init(client credentials: DTLSClientCredentials) throws(DTLSCredentialsError) {
        let context = try Self.newContext(DTLS_client_method())
        do throws(DTLSCredentialsError) {
            switch credentials {
            case .preSharedKey(let key):
                preSharedKey = key
                peerName = nil
                SSL_CTX_set_psk_client_callback(context) { ssl, _, identity, identityCapacity, key, keyCapacity in
                    guard let state = DTLSSessionState.of(ssl: ssl), let credential = state.preSharedKey,
                          let identity, let key,
                          credential.identity.utf8.count < identityCapacity, credential.key.count <= keyCapacity
                    else { return 0 }
                    for (index, byte) in (Array(credential.identity.utf8) + [0]).enumerated() {
                        identity[index] = CChar(bitPattern: byte)
                    }
                    key.update(from: credential.key, count: credential.key.count)
                    return UInt32(credential.key.count)
                }
            case .certificate(let verification, let clientCertificate):
                preSharedKey = nil
                peerName = verification?.peerName
                if let verification {
                    try Self.loadAuthorities(verification.certificateAuthorities, into: context)
                    SSL_CTX_set_verify(context, SSL_VERIFY_PEER, Self.verifyCallback)
                } else {
                    SSL_CTX_set_verify(context, SSL_VERIFY_NONE, nil)
                }
                if let clientCertificate { try Self.load(clientCertificate, into: context) }
            }
        } catch {
            SSL_CTX_free(context)
            throw error
        }
        role = .client
        pointer = context
        cookieSecret = []
    }

    /// A server context; loads and checks the credential files now.
    public init(server credentials: DTLSServerCredentials) throws(DTLSCredentialsError) {
        let context = try Self.newContext(DTLS_server_method())
        var secret = [UInt8](repeating: 0, count: 32)
        do throws(DTLSCredentialsError) {
            guard RAND_bytes(&secret, Int32(secret.count)) == 1 else {
                throw DTLSCredentialsError(path: nil, problem: .openSSL(OpenSSLErrorQueue.takeReason() ?? "no random bytes"))
            }
            switch credentials {
            case .preSharedKey(let key):
                preSharedKey = key
                SSL_CTX_set_psk_server_callback(context) { ssl, identity, key, keyCapacity in
                    guard let state = DTLSSessionState.of(ssl: ssl), let credential = state.preSharedKey,
                          let identity, let key, String(cString: identity) == credential.identity,
                          credential.key.count <= keyCapacity
                    else { return 0 }
                    key.update(from: credential.key, count: credential.key.count)
                    return UInt32(credential.key.count)
                }
            case .certificate(let files, let clientAuthorities):
                preSharedKey = nil
                try Self.load(files, into: context)
                if let clientAuthorities {
                    try Self.loadAuthorities(clientAuthorities, into: context)
                    SSL_CTX_set_verify(context, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, Self.verifyCallback)
                }
            }
        } catch {
            SSL_CTX_free(context)
            throw error
        }
        SSL_CTX_set_options(context, smp_ssl_op_cookie_exchange())
        SSL_CTX_set_cookie_generate_cb(context) { ssl, cookie, length in
            guard let state = DTLSSessionState.of(ssl: ssl), let cookie, let length else { return 0 }
            let value = state.cookie()
            guard !value.isEmpty else { return 0 }
            cookie.update(from: value, count: value.count)
            length.pointee = UInt32(value.count)
            return 1
        }
        SSL_CTX_set_cookie_verify_cb(context) { ssl, cookie, length in
            guard let state = DTLSSessionState.of(ssl: ssl), let cookie else { return 0 }
            let value = state.cookie()
            return !value.isEmpty && Array(UnsafeBufferPointer(start: cookie, count: Int(length))) == value ? 1 : 0
        }
        role = .server
        pointer = context
        peerName = nil
        cookieSecret = secret
    }

    deinit {
        SSL_CTX_free(pointer)
    }

    private static func newContext(_ method: OpaquePointer?) throws(DTLSCredentialsError) -> OpaquePointer {
        ERR_clear_error()
        guard let context = SSL_CTX_new(method) else {
            throw DTLSCredentialsError(path: nil, problem: .openSSL(OpenSSLErrorQueue.takeReason() ?? "SSL_CTX_new failed"))
        }
        guard smp_ssl_ctx_set_min_proto(context, DTLS1_2_VERSION) == 1,
              SSL_CTX_set_cipher_list(context, cipherList) == 1
        else {
            SSL_CTX_free(context)
            throw DTLSCredentialsError(path: nil, problem: .openSSL(OpenSSLErrorQueue.takeReason() ?? "DTLS 1.2 is not available"))
        }
        // The caller sets the MTU; the BIO has no socket to ask.
        SSL_CTX_set_options(context, smp_ssl_op_no_query_mtu())
        // An encrypted key fails to load instead of prompting on the terminal.
        SSL_CTX_set_default_passwd_cb(context) { _, _, _, _ in 0 }
        SSL_CTX_set_info_callback(context, infoCallback)
        return context
    }

    /// Loads a certificate (chain) and its key, checking that they belong together.
    private static func load(_ files: DTLSCertificateFiles, into context: OpaquePointer) throws(DTLSCredentialsError) {
        try DTLSCredentialsError.checkReadable(files.certificate)
        try DTLSCredentialsError.checkReadable(files.privateKey)
        ERR_clear_error()
        guard SSL_CTX_use_certificate_chain_file(context, files.certificate) == 1 else {
            throw DTLSCredentialsError(path: files.certificate, problem: .notCertificate(OpenSSLErrorQueue.takeReason() ?? "unknown reason"))
        }
        guard let keyFile = BIO_new_file(files.privateKey, "r") else {
            throw DTLSCredentialsError(path: files.privateKey, problem: .unreadable(OpenSSLErrorQueue.takeReason() ?? "unknown reason"))
        }
        defer { BIO_free(keyFile) }
        guard let key = PEM_read_bio_PrivateKey(keyFile, nil, { _, _, _, _ in 0 }, nil) else {
            throw DTLSCredentialsError(path: files.privateKey, problem: .notPrivateKey(OpenSSLErrorQueue.takeReason() ?? "unknown reason"))
        }
        defer { EVP_PKEY_free(key) }
        guard SSL_CTX_use_PrivateKey(context, key) == 1, SSL_CTX_check_private_key(context) == 1 else {
            ERR_clear_error()
            throw DTLSCredentialsError(path: files.privateKey, problem: .keyDoesNotMatch(certificate: files.certificate))
        }
    }

    /// Loads the certificate authorities a peer's certificate must chain to.
    private static func loadAuthorities(_ path: String, into context: OpaquePointer) throws(DTLSCredentialsError) {
        try DTLSCredentialsError.checkReadable(path)
        ERR_clear_error()
        guard SSL_CTX_load_verify_locations(context, path, nil) == 1 else {
            throw DTLSCredentialsError(path: path, problem: .noCertificateAuthority(OpenSSLErrorQueue.takeReason() ?? "unknown reason"))
        }
    }

    /// Keeps the first failed check of the peer's certificate for ``DTLSFailure/certificateRejected(_:)``.
    private static let verifyCallback: @convention(c) (Int32, OpaquePointer?) -> Int32 = { preverified, store in
        guard preverified == 0, let store,
              let ssl = X509_STORE_CTX_get_ex_data(store, SSL_get_ex_data_X509_STORE_CTX_idx()),
              let state = DTLSSessionState.of(ssl: OpaquePointer(ssl))
        else { return preverified }
        if state.certificateProblem == nil { state.certificateProblem = DTLSCertificateProblem(failedCheckIn: store) }
        return 0
    }

    /// Keeps the alerts the peer sends: a fatal one for ``DTLSFailure/alertReceived(_:)``, close_notify.
    private static let infoCallback: @convention(c) (OpaquePointer?, Int32, Int32) -> Void = { ssl, event, value in
        guard event & smp_ssl_cb_read_alert() == smp_ssl_cb_read_alert(), let state = DTLSSessionState.of(ssl: ssl) else { return }
        let code = UInt8(truncatingIfNeeded: value)
        if code == SSL_AD_CLOSE_NOTIFY {
            state.peerClosed = true
        } else if value >> 8 == SSL3_AL_FATAL, state.receivedAlert == nil {
            let description = SSL_alert_desc_string_long(value).map { String(cString: $0) } ?? "alert \(code)"
            state.receivedAlert = DTLSAlert(code: code, description: description)
        }
    }
}
