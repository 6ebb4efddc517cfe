import COpenSSL

/// What one session's OpenSSL callbacks reach (through the SSL's application data and the BIO's
/// data, as an unretained pointer; the ``DTLSSession`` owns it and outlives its SSL): the datagrams
/// in both directions, the credentials, and what the handshake reported.
final class DTLSSessionState {
    /// Datagrams received, not yet read by OpenSSL.
    var incoming: [[UInt8]] = []
    /// Datagrams OpenSSL wrote, not yet taken by the caller.
    var outgoing: [[UInt8]] = []
    /// Datagrams received so far.
    var receivedDatagrams = 0
    /// The first certificate check that failed.
    var certificateProblem: DTLSCertificateProblem?
    /// The fatal alert the peer sent.
    var receivedAlert: DTLSAlert?
    /// Whether the peer sent close_notify.
    var peerClosed = false

    /// The pre-shared key, when the session uses one.
    let preSharedKey: DTLSPreSharedKey?
    /// What a server's HelloVerifyRequest cookie is made of: the context's secret and the peer.
    let cookieInput: [UInt8]

    init(preSharedKey: DTLSPreSharedKey?, cookieInput: [UInt8]) {
        self.preSharedKey = preSharedKey
        self.cookieInput = cookieInput
    }

    /// The state of the session `ssl` belongs to.
    static func of(ssl: OpaquePointer?) -> DTLSSessionState? {
        guard let ssl, let pointer = SSL_get_ex_data(ssl, 0) else { return nil }
        return Unmanaged<DTLSSessionState>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// The state of the session `bio` belongs to.
    static func of(bio: OpaquePointer?) -> DTLSSessionState? {
        guard let bio, let pointer = BIO_get_data(bio) else { return nil }
        return Unmanaged<DTLSSessionState>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// The cookie for this peer: SHA-256 of the context's secret and the peer's address.
    func cookie() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = cookieInput.withUnsafeBytes { input in
            EVP_Digest(input.baseAddress, input.count, &digest, &length, EVP_sha256(), nil)
        }
        return ok == 1 ? Array(digest[..<Int(length)]) : []
    }
}
