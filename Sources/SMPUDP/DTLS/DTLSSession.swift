#if canImport(Glibc)
import Glibc
#endif
import COpenSSL

/// One DTLS 1.2 association (client or server, after its ``DTLSContext``), without I/O: the caller
/// moves datagrams and owns the clock.
///
/// - Hand each datagram from the peer to ``receive(_:)``, then call ``handshake()`` until it
///   returns ``DTLSHandshakeProgress/complete``, and ``open()`` after it.
/// - After every call, send each datagram of ``takeOutgoing()`` as one UDP datagram, in order
///   (also after a failure: it may hold the alert for the peer).
/// - While the handshake runs, ask ``nextTimeout`` how long to wait for the peer and call
///   ``handleTimeout()`` when that time has passed: it retransmits the last flight (1 s, then
///   doubling). Bound the whole handshake yourself; when that deadline passes, ``unansweredHandshake``
///   says how far the peer got.
/// - ``seal(_:)`` encrypts one message into one record; ``maximumPlaintext`` is the most that fits
///   one datagram of the MTU. ``close()`` sends close_notify.
///
/// Not thread-safe: use a session from one thread (or one event loop, one actor) at a time.
public final class DTLSSession {
    /// The configuration the session was made from.
    public let context: DTLSContext
    private let ssl: OpaquePointer
    private let state: DTLSSessionState
    private var failure: DTLSFailure?
    /// Where ``open()`` decrypts records, kept between calls.
    private var readBuffer = [UInt8](repeating: 0, count: DTLSSession.maximumRecordPlaintext)

    /// A session of `context`'s role.
    ///
    /// - Parameters:
    ///   - context: the role and credentials.
    ///   - mtu: the largest UDP payload one datagram may carry (the path's MTU less the IP and UDP
    ///     headers: 1472 on Ethernet with IPv4, 1452 with IPv6); handshake messages are fragmented
    ///     to fit, and ``maximumPlaintext`` follows from it. At least 256.
    ///   - peer: the peer's address as bytes (a server's HelloVerifyRequest cookie is bound to it;
    ///     a client may leave it empty).
    public init(context: DTLSContext, mtu: Int = 1472, peer: [UInt8] = []) throws(DTLSFailure) {
        self.context = context
        state = DTLSSessionState(preSharedKey: context.preSharedKey, cookieInput: context.cookieSecret + peer)
        ERR_clear_error()
        guard let ssl = SSL_new(context.pointer) else {
            throw DTLSFailure.protocolFailure(OpenSSLErrorQueue.takeReason() ?? "SSL_new failed")
        }
        self.ssl = ssl
        SSL_set_ex_data(ssl, 0, Unmanaged.passUnretained(state).toOpaque())
        guard let bio = DTLSDatagramBIO.make(for: state) else {
            throw DTLSFailure.protocolFailure(OpenSSLErrorQueue.takeReason() ?? "BIO_new failed")
        }
        SSL_set_bio(ssl, bio, bio)
        guard smp_ssl_set_mtu(ssl, mtu) > 0 else {
            throw DTLSFailure.protocolFailure("an MTU of \(mtu) bytes is too small for DTLS")
        }
        switch context.role {
        case .client:
            SSL_set_connect_state(ssl)
            if let name = context.peerName { try Self.expect(name, on: ssl) }
        case .server:
            SSL_set_accept_state(ssl)
        }
    }

    deinit {
        SSL_free(ssl)
    }

    /// Hands over a datagram received from the peer (read by the next call).
    public func receive(_ datagram: [UInt8]) {
        state.receivedDatagrams += 1
        state.incoming.append(datagram)
    }

    /// The datagrams to send to the peer, in order, each as one UDP datagram; empties the list.
    public func takeOutgoing() -> [[UInt8]] {
        defer { state.outgoing = [] }
        return state.outgoing
    }

    /// Whether the handshake is complete.
    public var isHandshakeComplete: Bool { SSL_is_init_finished(ssl) == 1 }

    /// Runs the handshake as far as the received datagrams allow.
    ///
    /// - Returns: ``DTLSHandshakeProgress/complete`` once done (also on later calls).
    /// - Throws: ``DTLSFailure`` when the handshake failed (the same failure on every later call).
    @discardableResult
    public func handshake() throws(DTLSFailure) -> DTLSHandshakeProgress {
        if let failure { throw failure }
        if isHandshakeComplete { return .complete }
        ERR_clear_error()
        let result = SSL_do_handshake(ssl)
        if result == 1 { return .complete }
        try check(result)
        return .inProgress
    }

    /// How long to wait for the peer before ``handleTimeout()``, while OpenSSL's retransmission
    /// timer runs (during the handshake, and just after it while the peer may repeat its last
    /// flight); nil when no timer runs.
    public var nextTimeout: Duration? {
        var left = timeval()
        guard smp_dtls_get_timeout(ssl, &left) == 1 else { return nil }
        return .seconds(left.tv_sec) + .microseconds(left.tv_usec)
    }

    /// Retransmits the last flight if its timer has run out (see ``nextTimeout``); does nothing
    /// otherwise. Throws after too many retransmissions (the peer is gone).
    public func handleTimeout() throws(DTLSFailure) {
        if let failure { throw failure }
        ERR_clear_error()
        if smp_dtls_handle_timeout(ssl) < 0 {
            let failure = isHandshakeComplete ? DTLSFailure.protocolFailure("the peer stopped answering") : unansweredHandshake
            self.failure = failure
            throw failure
        }
    }

    /// Why the handshake is not complete, for a caller whose deadline for it has passed: no
    /// answer to the ClientHello (no DTLS server there), no answer after this side's Finished (the
    /// peer did not accept the pre-shared key), or silence somewhere between.
    public var unansweredHandshake: DTLSFailure {
        switch SSL_get_state(ssl) {
        case TLS_ST_BEFORE, TLS_ST_CW_CLNT_HELLO, DTLS_ST_CR_HELLO_VERIFY_REQUEST: .noAnswerToHello
        case TLS_ST_CW_FINISHED, TLS_ST_CW_CHANGE: .noAnswerAfterFinished
        default: .handshakeStalled
        }
    }

    /// Encrypts `plaintext` as one record (its datagram goes to ``takeOutgoing()``). Keep it to
    /// ``maximumPlaintext`` bytes for it to fit one datagram of the MTU.
    public func seal(_ plaintext: [UInt8]) throws(DTLSFailure) {
        if let failure { throw failure }
        guard isHandshakeComplete else { throw DTLSFailure.protocolFailure("the handshake is not complete") }
        guard !state.peerClosed else { throw DTLSFailure.closed }
        ERR_clear_error()
        let result = plaintext.withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
        if result <= 0 { try check(result) }
    }

    /// The messages decrypted from the received datagrams, in order. Records that do not
    /// authenticate are dropped, as DTLS does; after the peer's close_notify, ``isClosedByPeer``
    /// is true and nothing more comes.
    public func open() throws(DTLSFailure) -> [[UInt8]] {
        if let failure { throw failure }
        var messages: [[UInt8]] = []
        while !state.peerClosed {
            ERR_clear_error()
            let count = readBuffer.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
            guard count > 0 else {
                try check(count)
                break
            }
            messages.append(Array(readBuffer[..<Int(count)]))
        }
        return messages
    }

    /// Whether the peer sent close_notify.
    public var isClosedByPeer: Bool { state.peerClosed }

    /// Sends close_notify (once the handshake is complete; before, there is nothing to close).
    public func close() {
        guard isHandshakeComplete, SSL_get_shutdown(ssl) & SSL_SENT_SHUTDOWN == 0 else { return }
        ERR_clear_error()
        SSL_shutdown(ssl)
        ERR_clear_error()
    }

    /// The largest message ``seal(_:)`` fits in one datagram of the MTU (the MTU less the record
    /// header, the cipher's IV, tag and padding); 0 until the handshake is complete.
    public var maximumPlaintext: Int { isHandshakeComplete ? Int(DTLS_get_data_mtu(ssl)) : 0 }

    /// The cipher suite agreed, e.g. `PSK-AES128-GCM-SHA256`; nil before the handshake.
    public var cipherSuite: String? {
        guard isHandshakeComplete, let name = SSL_CIPHER_get_name(SSL_get_current_cipher(ssl)) else { return nil }
        return String(cString: name)
    }

    /// The most plaintext one DTLS record carries.
    private static let maximumRecordPlaintext = 16_384

    /// Maps OpenSSL's result of an operation: returns when it only waits for the peer; throws
    /// (and remembers) a failure otherwise.
    private func check(_ result: Int32) throws(DTLSFailure) {
        switch SSL_get_error(ssl, result) {
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
            ERR_clear_error()
            return
        case SSL_ERROR_ZERO_RETURN:
            state.peerClosed = true
            ERR_clear_error()
            return
        default:
            let reason = OpenSSLErrorQueue.takeReason()
            let failure: DTLSFailure =
                if let problem = state.certificateProblem { .certificateRejected(problem) }
                else if let alert = state.receivedAlert { .alertReceived(alert) }
                else { .protocolFailure(reason ?? "unknown error") }
            self.failure = failure
            throw failure
        }
    }

    /// Makes the handshake check that the peer's certificate carries `name` (an IP address
    /// literal, or a DNS name also sent as the server name indication).
    private static func expect(_ name: String, on ssl: OpaquePointer) throws(DTLSFailure) {
        var address = in6_addr()
        let isAddress = inet_pton(AF_INET, name, &address) == 1 || inet_pton(AF_INET6, name, &address) == 1
        let accepted =
            isAddress
            ? X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), name) == 1
            : SSL_set1_host(ssl, name) == 1 && smp_set_tlsext_host_name(ssl, name) == 1
        guard accepted else {
            ERR_clear_error()
            throw DTLSFailure.protocolFailure("\(name) cannot be checked as a certificate name")
        }
    }
}

/// How far a handshake is.
public enum DTLSHandshakeProgress: Sendable, Equatable {
    /// Waiting for the peer (send what ``DTLSSession/takeOutgoing()`` holds, then wait for a
    /// datagram or ``DTLSSession/nextTimeout``).
    case inProgress
    /// Done: application data may flow.
    case complete
}
