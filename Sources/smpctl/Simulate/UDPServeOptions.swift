import ArgumentParser
import SMPUDP

/// Where to serve UDP, and whether over DTLS.
struct UDPServeOptions: ParsableArguments {
    static let defaultAddress = "127.0.0.1:1337"

    @Option(name: .customLong("udp"), help: ArgumentHelp(
        "Address and port to serve on: 127.0.0.1:1337, [::1]:0, 0.0.0.0:1337 (default \(defaultAddress) unless only --serial-link is given).",
        valueName: "host:port"))
    var address: String?

    @Option(name: .customLong("dtls-psk-id"), help: ArgumentHelp(
        "Serve DTLS 1.2 with a pre-shared key: the identity clients give (with --dtls-psk-file). Plain UDP is then ignored, as on a Zephyr device with CONFIG_MCUMGR_TRANSPORT_UDP_DTLS.",
        valueName: "identity"))
    var pskIdentity: String?

    @Option(name: .customLong("dtls-psk-file"), help: ArgumentHelp(
        "File holding the pre-shared key as hex digits (with --dtls-psk-id).", valueName: "path"))
    var pskFile: String?

    @Option(name: .customLong("dtls-cert"), help: ArgumentHelp(
        "Serve DTLS 1.2 with this PEM certificate (chain) (with --dtls-key).", valueName: "path"))
    var certificate: String?

    @Option(name: .customLong("dtls-key"), help: ArgumentHelp(
        "The PEM private key of --dtls-cert (not encrypted).", valueName: "path"))
    var privateKey: String?

    @Option(name: .customLong("dtls-ca"), help: ArgumentHelp(
        "With --dtls-cert: ask every client for a certificate and accept only those these PEM CA certificates signed.",
        valueName: "path"))
    var clientAuthorities: String?

    /// Whether any DTLS option is given.
    var dtlsRequested: Bool { [pskIdentity, pskFile, certificate, privateKey, clientAuthorities].contains { $0 != nil } }

    func validate() throws {
        if (pskIdentity == nil) != (pskFile == nil) {
            throw ValidationError("--dtls-psk-id and --dtls-psk-file go together: give both (the identity and the file holding the key)")
        }
        if (certificate == nil) != (privateKey == nil) {
            throw ValidationError("--dtls-cert and --dtls-key go together: give both (the certificate and its private key)")
        }
        if pskIdentity != nil, certificate != nil {
            throw ValidationError("choose one DTLS credential: --dtls-psk-id with --dtls-psk-file, or --dtls-cert with --dtls-key")
        }
        if clientAuthorities != nil, certificate == nil {
            throw ValidationError("--dtls-ca checks client certificates of a certificate server: give --dtls-cert and --dtls-key too")
        }
    }

    /// The DTLS server configuration asked for, nil for plain UDP; credential files are read and
    /// checked now.
    func dtlsContext() throws(CLIError) -> DTLSContext? {
        do {
            if let pskIdentity, let pskFile {
                return try DTLSContext(server: .preSharedKey(DTLSPreSharedKey(identity: pskIdentity, hexKeyFile: pskFile)))
            }
            if let certificate, let privateKey {
                return try DTLSContext(
                    server: .certificate(
                        DTLSCertificateFiles(certificate: certificate, privateKey: privateKey),
                        clientCertificateAuthorities: clientAuthorities))
            }
            return nil
        } catch {
            throw CLIError(
                .dataError, error.description,
                hint: "--dtls-psk-file holds the key as hex digits; --dtls-cert, --dtls-key and --dtls-ca take PEM files (the key not encrypted)")
        }
    }

    /// `DTLS with the pre-shared key identity "ID"`, `DTLS with certificate FILE`: what the banner
    /// says (never the key).
    var dtlsDescription: String? {
        if let pskIdentity { return "DTLS with the pre-shared key identity \"\(pskIdentity)\"" }
        guard let certificate else { return nil }
        return "DTLS with certificate \(certificate)" + (clientAuthorities.map { ", client certificates signed by \($0) required" } ?? "")
    }

    /// The connection options a client adds to the endpoint to reach this server, e.g.
    /// `?dtls=1&psk-id=ID&psk-file=FILE`.
    var dtlsConnectionOptions: String {
        if let pskIdentity, let pskFile { return "?dtls=1&psk-id=\(pskIdentity)&psk-file=\(pskFile)" }
        guard certificate != nil else { return "" }
        return "?dtls=1&ca=CA.pem" + (clientAuthorities != nil ? "&cert=CLIENT.pem&key=CLIENT.key" : "")
    }
}
