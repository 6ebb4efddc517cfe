import SMPUDP

extension DTLSOptions {
    /// The credentials the options give for a device at `host`: the PSK (read from its file now),
    /// or certificates, verified against `ca` for `server-name` (else the host, without an IPv6
    /// zone) unless `verify=0`.
    ///
    /// - Throws: ``DTLSCredentialsError`` for a key file that cannot be read or is not hex.
    func clientCredentials(host: String) throws(DTLSCredentialsError) -> DTLSClientCredentials {
        if let identity = pskIdentity {
            if let pskFile { return .preSharedKey(try DTLSPreSharedKey(identity: identity, hexKeyFile: pskFile)) }
            return .preSharedKey(try DTLSPreSharedKey(identity: identity, key: psk?.bytes ?? []))
        }
        let peerName = serverName ?? String(host.prefix { $0 != "%" })
        let verification = verify == false ? nil : caFile.map { DTLSPeerVerification(certificateAuthorities: $0, peerName: peerName) }
        let client = certificateFile.flatMap { certificate in keyFile.map { DTLSCertificateFiles(certificate: certificate, privateKey: $0) } }
        return .certificate(verification: verification, clientCertificate: client)
    }
}
