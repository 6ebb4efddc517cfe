import SMPTestSupport
import SMPUDP
import XCTest

/// DTLSSession clients and servers wired back to back in memory (no sockets): handshakes with
/// each kind of credential, the typed failures, retransmission, close_notify, record sizes.
final class DTLSSessionTests: XCTestCase {
    private var files: DTLSTestCredentials!

    override func setUpWithError() throws {
        files = try DTLSTestCredentials.make()
    }

    // MARK: Handshakes that succeed

    func testPreSharedKeyHandshakeCarriesAnSMPMessageBothWays() throws {
        let (client, server) = try sessions(client: .preSharedKey(psk()), server: .preSharedKey(psk()))
        let outcome = exchange(client, server)
        XCTAssertNil(outcome.client)
        XCTAssertNil(outcome.server)
        XCTAssertTrue(client.isHandshakeComplete && server.isHandshakeComplete)
        XCTAssertEqual(client.cipherSuite?.contains("PSK-"), true, "\(client.cipherSuite ?? "none")")

        // An SMP request: 8-byte header and a 300-byte CBOR body.
        let request: [UInt8] = [0x02, 0x00, 0x01, 0x2C, 0x00, 0x01, 0x07, 0x00] + (0..<300).map { UInt8($0 & 0xFF) }
        try client.seal(request)
        let sealed = client.takeOutgoing()
        XCTAssertEqual(sealed.count, 1)
        XCTAssertNotEqual(sealed.first, request)
        sealed.forEach(server.receive)
        XCTAssertEqual(try server.open(), [request])

        let response: [UInt8] = [0x03, 0x00, 0x00, 0x05, 0x00, 0x01, 0x07, 0x00, 0xA1, 0x61, 0x72, 0x00, 0x00]
        try server.seal(response)
        server.takeOutgoing().forEach(client.receive)
        XCTAssertEqual(try client.open(), [response])
    }

    func testClientOffersTheCCM8SuiteZephyrConfigures() throws {
        let client = try DTLSSession(context: DTLSContext(client: .preSharedKey(psk())))
        try client.handshake()
        let hello = try XCTUnwrap(client.takeOutgoing().first)
        // Record header (13), handshake header (12), version (2), random (32), then the session id,
        // the cookie and the cipher suites, each after its length.
        var offset = 13 + 12 + 2 + 32
        offset += 1 + Int(hello[offset])
        offset += 1 + Int(hello[offset])
        let length = Int(hello[offset]) << 8 | Int(hello[offset + 1])
        let suites = stride(from: offset + 2, to: offset + 2 + length, by: 2).map { UInt16(hello[$0]) << 8 | UInt16(hello[$0 + 1]) }
        XCTAssertTrue(suites.contains(0xC0A8), "TLS_PSK_WITH_AES_128_CCM_8 in \(suites)")
        XCTAssertTrue(suites.contains(0xC0A4), "TLS_PSK_WITH_AES_128_CCM")
        XCTAssertTrue(suites.contains(0xC02B), "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256 (Zephyr's sample)")
    }

    func testCertificateVerifiedAgainstTheCAAndTheDNSNameOrIPAddress() throws {
        for name in ["localhost", "127.0.0.1"] {
            let (client, server) = try sessions(
                client: .certificate(verification: verification(name), clientCertificate: nil), server: deviceCertificate())
            let outcome = exchange(client, server)
            XCTAssertNil(outcome.client, name)
            XCTAssertNil(outcome.server, name)
            XCTAssertTrue(client.isHandshakeComplete, name)
        }
    }

    func testUnverifiedCertificateIsAcceptedWhenVerificationIsOff() throws {
        let (client, server) = try sessions(
            client: .certificate(verification: nil, clientCertificate: nil), server: deviceCertificate("stranger"))
        XCTAssertNil(exchange(client, server).client)
        XCTAssertTrue(client.isHandshakeComplete)
    }

    // MARK: Certificates that fail

    func testCertificateForAnotherNameIsRejected() throws {
        let problem = try rejectedCertificate(device: "device", name: "smp.example.com")
        XCTAssertEqual(problem.check, .nameMismatch)
        XCTAssertEqual(problem.reason, "hostname mismatch")
        XCTAssertEqual(problem.subject, "CN=smp-device")
        XCTAssertEqual(problem.issuer, "CN=smpctl test CA")

        let address = try rejectedCertificate(device: "device", name: "10.1.2.3")
        XCTAssertEqual(address.check, .nameMismatch)
        XCTAssertEqual(address.reason, "IP address mismatch")
    }

    func testCertificateFromAnUnknownCAIsRejected() throws {
        let problem = try rejectedCertificate(device: "stranger", name: "localhost")
        XCTAssertEqual(problem.check, .untrusted)
        XCTAssertEqual(problem.reason, "unable to get local issuer certificate")
        XCTAssertEqual(problem.issuer, "CN=another CA")
    }

    func testExpiredCertificateIsRejectedWithItsValidity() throws {
        let problem = try rejectedCertificate(device: "expired", name: "localhost")
        XCTAssertEqual(problem.check, .expired)
        XCTAssertEqual(problem.reason, "certificate has expired")
        XCTAssertTrue(problem.notAfter.hasSuffix(" UTC"), problem.notAfter)
        XCTAssertLessThan(problem.notBefore, problem.notAfter)
        XCTAssertTrue(
            problem.description.hasPrefix("certificate has expired (subject CN=smp-device, issuer CN=smpctl test CA, valid "),
            problem.description)
    }

    func testClientCertificateRequiredByTheServer() throws {
        let given = try sessions(
            client: .certificate(
                verification: verification("localhost"),
                clientCertificate: DTLSCertificateFiles(certificate: files.path("client.pem"), privateKey: files.path("client.key"))),
            server: deviceCertificate(clientAuthorities: files.path("ca.pem")))
        let accepted = exchange(given.client, given.server)
        XCTAssertNil(accepted.client)
        XCTAssertNil(accepted.server)
        XCTAssertTrue(given.server.isHandshakeComplete)

        let missing = try sessions(
            client: .certificate(verification: verification("localhost"), clientCertificate: nil),
            server: deviceCertificate(clientAuthorities: files.path("ca.pem")))
        let refused = exchange(missing.client, missing.server)
        XCTAssertEqual(refused.server, .protocolFailure("peer did not return a certificate"))
        guard case .alertReceived(let alert) = refused.client else {
            return XCTFail("expected an alert, got \(String(describing: refused.client))")
        }
        XCTAssertEqual(alert.description, "handshake failure")
    }

    func testClientCertificateFromAnotherCAIsRejectedByTheServer() throws {
        let (client, server) = try sessions(
            client: .certificate(
                verification: verification("localhost"),
                clientCertificate: DTLSCertificateFiles(certificate: files.path("stranger.pem"), privateKey: files.path("stranger.key"))),
            server: deviceCertificate(clientAuthorities: files.path("ca.pem")))
        let outcome = exchange(client, server)
        guard case .certificateRejected(let problem) = outcome.server else {
            return XCTFail("expected the server to reject the certificate, got \(String(describing: outcome.server))")
        }
        XCTAssertEqual(problem.check, .untrusted)
        guard case .alertReceived = outcome.client else { return XCTFail("expected an alert, got \(String(describing: outcome.client))") }
    }

    // MARK: Pre-shared keys that fail

    func testWrongKeyLeavesTheClientWithoutAnswerAfterItsFinished() throws {
        let wrong = try DTLSPreSharedKey(identity: files.pskIdentity, key: [UInt8](repeating: 0x42, count: 16))
        let (client, server) = try sessions(client: .preSharedKey(wrong), server: .preSharedKey(psk()))
        let outcome = exchange(client, server)
        XCTAssertNil(outcome.client, "records under the wrong key are dropped, not answered")
        XCTAssertFalse(client.isHandshakeComplete)
        XCTAssertEqual(client.unansweredHandshake, .noAnswerAfterFinished)
    }

    func testUnknownIdentityGetsAnAlert() throws {
        let stranger = try DTLSPreSharedKey(identity: "somebody-else", hexKey: files.pskHex)
        let (client, server) = try sessions(client: .preSharedKey(stranger), server: .preSharedKey(psk()))
        let outcome = exchange(client, server)
        XCTAssertEqual(outcome.client, .alertReceived(DTLSAlert(code: 115, description: "unknown PSK identity")))
        XCTAssertNotNil(outcome.server)
    }

    func testNoServerMeansNoAnswerToTheHello() throws {
        let client = try DTLSSession(context: DTLSContext(client: .preSharedKey(psk())))
        XCTAssertEqual(try client.handshake(), .inProgress)
        XCTAssertEqual(client.takeOutgoing().count, 1)
        XCTAssertEqual(client.unansweredHandshake, .noAnswerToHello)
    }

    // MARK: Datagrams

    func testServerAsksForACookieFirst() throws {
        let (client, server) = try sessions(client: .preSharedKey(psk()), server: .preSharedKey(psk()))
        try client.handshake()
        client.takeOutgoing().forEach(server.receive)
        XCTAssertEqual(try server.handshake(), .inProgress)
        let answer = server.takeOutgoing()
        XCTAssertEqual(answer.count, 1)
        // A handshake record (22) of DTLS (0xFE..) whose message is a HelloVerifyRequest (3).
        XCTAssertEqual(answer.first.map { [$0[0], $0[1], $0[13]] }, [22, 0xFE, 3])
    }

    func testLostFlightIsSentAgainWhenItsTimerRunsOut() throws {
        let (client, server) = try sessions(client: .preSharedKey(psk()), server: .preSharedKey(psk()))
        try client.handshake()
        let lost = client.takeOutgoing()
        XCTAssertEqual(lost.count, 1)
        let wait = try XCTUnwrap(client.nextTimeout)
        XCTAssertGreaterThan(wait, .zero)
        XCTAssertLessThanOrEqual(wait, .seconds(1))
        try client.handleTimeout()
        XCTAssertEqual(client.takeOutgoing(), [], "nothing is sent again before the timer runs out")
        Thread.sleep(forTimeInterval: Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18 + 0.05)
        try client.handleTimeout()
        let again = client.takeOutgoing()
        // The same ClientHello in a record with the next sequence number.
        XCTAssertEqual(again.map { Array($0.dropFirst(13)) }, lost.map { Array($0.dropFirst(13)) })
        XCTAssertEqual(again.first?[10], 1)
        again.forEach(server.receive)
        let outcome = exchange(client, server)
        XCTAssertNil(outcome.client)
        XCTAssertTrue(client.isHandshakeComplete && server.isHandshakeComplete)
    }

    func testCloseNotifyReachesThePeer() throws {
        let (client, server) = try sessions(client: .preSharedKey(psk()), server: .preSharedKey(psk()))
        exchange(client, server)
        client.close()
        let closing = client.takeOutgoing()
        XCTAssertEqual(closing.count, 1)
        closing.forEach(server.receive)
        XCTAssertEqual(try server.open(), [])
        XCTAssertTrue(server.isClosedByPeer)
        XCTAssertThrowsError(try server.seal([1])) { XCTAssertEqual($0 as? DTLSFailure, .closed) }
    }

    func testMaximumPlaintextFillsOneDatagramOfTheMTU() throws {
        let (client, server) = try sessions(client: .preSharedKey(psk()), server: .preSharedKey(psk()), mtu: 1200)
        XCTAssertEqual(client.maximumPlaintext, 0, "unknown before the handshake")
        exchange(client, server)
        let limit = client.maximumPlaintext
        XCTAssertGreaterThan(limit, 1200 - 80)
        XCTAssertLessThan(limit, 1200)
        try client.seal([UInt8](repeating: 7, count: limit))
        let datagrams = client.takeOutgoing()
        XCTAssertEqual(datagrams.count, 1)
        XCTAssertLessThanOrEqual(datagrams.first?.count ?? .max, 1200)
        datagrams.forEach(server.receive)
        XCTAssertEqual(try server.open().first?.count, limit)
    }

    // MARK: Credentials

    func testPreSharedKeyNeverShowsItsKey() throws {
        let key = try DTLSPreSharedKey(identity: "dev-1", hexKey: "00 11 22 33\n44 55 66 77")
        XCTAssertEqual(key.key, [0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77])
        var dumped = ""
        dump(key, to: &dumped)
        for text in [key.description, String(reflecting: key), dumped, "\(DTLSClientCredentials.preSharedKey(key))"] {
            XCTAssertTrue(text.contains("dev-1"), text)
            XCTAssertFalse(text.contains("11") || text.contains("[0, 17"), text)
        }
        XCTAssertThrowsError(try DTLSPreSharedKey(identity: "dev-1", hexKey: "0g")) {
            XCTAssertEqual(($0 as? DTLSCredentialsError)?.problem, .notHex)
        }
        XCTAssertThrowsError(try DTLSPreSharedKey(identity: "dev-1", hexKey: "012")) {
            XCTAssertEqual(($0 as? DTLSCredentialsError)?.problem, .oddHexDigits)
        }
        XCTAssertThrowsError(try DTLSPreSharedKey(identity: "", key: [1])) {
            XCTAssertEqual(($0 as? DTLSCredentialsError)?.problem, .identityLength(0))
        }
        XCTAssertThrowsError(try DTLSPreSharedKey(identity: "dev-1", key: [])) {
            XCTAssertEqual(($0 as? DTLSCredentialsError)?.problem, .keyLength(0))
        }
    }

    func testKeyFileErrorsNameTheFileNotItsContents() throws {
        let bad = files.path("bad-psk.hex")
        try "secretsecret\n".write(toFile: bad, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try DTLSPreSharedKey(identity: "x", hexKeyFile: bad)) {
            let text = "\($0)"
            XCTAssertEqual(text, "\(bad): the pre-shared key must be hex digits (0-9, a-f)")
        }
        let missing = files.path("missing.hex")
        XCTAssertThrowsError(try DTLSPreSharedKey(identity: "x", hexKeyFile: missing)) {
            XCTAssertEqual("\($0)", "\(missing): cannot read the file: No such file or directory")
        }
        XCTAssertEqual(try DTLSPreSharedKey(identity: "x", hexKeyFile: files.path("psk.hex")).key.count, 16)
    }

    func testCertificateFileErrorsNameTheFileAndWhatIsWrong() throws {
        func failure(_ credentials: DTLSServerCredentials) -> DTLSCredentialsError? {
            do {
                _ = try DTLSContext(server: credentials)
                return nil
            } catch {
                return error
            }
        }
        let notPEM = files.path("psk.hex")
        let device = DTLSCertificateFiles(certificate: files.path("device.pem"), privateKey: files.path("device.key"))

        let certificate = failure(.certificate(DTLSCertificateFiles(certificate: notPEM, privateKey: device.privateKey), clientCertificateAuthorities: nil))
        XCTAssertEqual(certificate?.path, notPEM)
        guard case .notCertificate = certificate?.problem else { return XCTFail("\(String(describing: certificate))") }

        let key = failure(.certificate(DTLSCertificateFiles(certificate: device.certificate, privateKey: files.path("ca.pem")), clientCertificateAuthorities: nil))
        XCTAssertEqual(key?.path, files.path("ca.pem"))
        guard case .notPrivateKey = key?.problem else { return XCTFail("\(String(describing: key))") }

        let mismatch = failure(.certificate(DTLSCertificateFiles(certificate: device.certificate, privateKey: files.path("client.key")), clientCertificateAuthorities: nil))
        XCTAssertEqual(mismatch?.description, "\(files.path("client.key")): this private key does not belong to the certificate \(device.certificate)")

        let authorities = failure(.certificate(device, clientCertificateAuthorities: notPEM))
        XCTAssertEqual(authorities?.path, notPEM)
        guard case .noCertificateAuthority = authorities?.problem else { return XCTFail("\(String(describing: authorities))") }

        let missing = failure(.certificate(DTLSCertificateFiles(certificate: files.path("nothing.pem"), privateKey: device.privateKey), clientCertificateAuthorities: nil))
        XCTAssertEqual(missing?.description, "\(files.path("nothing.pem")): cannot read the file: No such file or directory")

        XCTAssertNil(failure(.certificate(device, clientCertificateAuthorities: files.path("ca.pem"))))
    }

    // MARK: Helpers

    private func psk() throws -> DTLSPreSharedKey {
        try DTLSPreSharedKey(identity: files.pskIdentity, hexKey: files.pskHex)
    }

    private func verification(_ name: String) -> DTLSPeerVerification {
        DTLSPeerVerification(certificateAuthorities: files.path("ca.pem"), peerName: name)
    }

    private func deviceCertificate(_ name: String = "device", clientAuthorities: String? = nil) -> DTLSServerCredentials {
        .certificate(
            DTLSCertificateFiles(certificate: files.path("\(name).pem"), privateKey: files.path("\(name).key")),
            clientCertificateAuthorities: clientAuthorities)
    }

    private func sessions(
        client: DTLSClientCredentials, server: DTLSServerCredentials, mtu: Int = 1472
    ) throws -> (client: DTLSSession, server: DTLSSession) {
        (
            try DTLSSession(context: DTLSContext(client: client), mtu: mtu),
            try DTLSSession(context: DTLSContext(server: server), mtu: mtu, peer: Array("127.0.0.1:40000".utf8))
        )
    }

    /// The certificate problem the client reports for the device certificate `device` and `name`.
    private func rejectedCertificate(device: String, name: String) throws -> DTLSCertificateProblem {
        let (client, server) = try sessions(
            client: .certificate(verification: verification(name), clientCertificate: nil), server: deviceCertificate(device))
        let outcome = exchange(client, server)
        guard case .certificateRejected(let problem) = outcome.client else {
            XCTFail("expected a rejected certificate, got \(String(describing: outcome.client))")
            throw DTLSFailure.handshakeStalled
        }
        XCTAssertNotNil(outcome.server, "the client's alert ends the server's handshake too")
        return problem
    }

    /// Runs both handshakes, handing every datagram over, until neither side has anything to send;
    /// returns each side's failure.
    @discardableResult
    private func exchange(_ client: DTLSSession, _ server: DTLSSession) -> (client: DTLSFailure?, server: DTLSFailure?) {
        var clientFailure: DTLSFailure?
        var serverFailure: DTLSFailure?
        for _ in 0..<20 {
            if clientFailure == nil, case .failure(let failure) = Result(catching: { () throws(DTLSFailure) in try client.handshake() }) {
                clientFailure = failure
            }
            let toServer = client.takeOutgoing()
            toServer.forEach(server.receive)
            if serverFailure == nil, case .failure(let failure) = Result(catching: { () throws(DTLSFailure) in try server.handshake() }) {
                serverFailure = failure
            }
            let toClient = server.takeOutgoing()
            toClient.forEach(client.receive)
            if toServer.isEmpty && toClient.isEmpty { break }
        }
        return (clientFailure, serverFailure)
    }
}
