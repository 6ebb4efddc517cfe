import Logging
import SMP
import SMPUDP

extension SMPConnection {
    /// Opens `udp:HOST:PORT`, over DTLS when the options say `dtls=1` (after the handshake, whose
    /// cipher suite and time go to `logger`); the options must make sense together
    /// (``DTLSOptions/mistake``).
    static func openUDP(host: String, port: Int, options: ConnectionOptions, logger: Logger) async throws(SMPTransportError) -> any SMPTransport {
        let mtu = options.mtu ?? UDPTransport.defaultMTU
        let dtls = options.dtls
        if let mistake = dtls.mistake {
            throw SMPTransportError(.unsupportedSetting, "\(ConnectionString(target: .udp(host: host, port: port), options: options)): \(mistake.problem)", hint: mistake.hint)
        }
        guard dtls.isEnabled else { return try await UDPTransport.connect(host: host, port: port, mtu: mtu) }
        let credentials: DTLSClientCredentials
        do {
            credentials = try dtls.clientCredentials(host: host)
        } catch {
            throw DTLSTransport.credentialsFailure(error, host: host, port: port)
        }
        let transport = try await DTLSTransport.connect(
            host: host, port: port, mtu: mtu, credentials: credentials,
            handshakeTimeout: options.timeout.map { .seconds($0) } ?? DTLSTransport.defaultHandshakeTimeout)
        logger.debug(
            "DTLS handshake complete",
            metadata: ["cipher": .string(transport.cipherSuite), "handshakeTime": .stringConvertible(transport.handshakeDuration)])
        return transport
    }
}
