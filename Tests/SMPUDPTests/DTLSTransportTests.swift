import Foundation
import SMP
import SMPSimulator
import SMPTestSupport
import SMPUDP
import XCTest

/// `DTLSTransport` against a DTLS server we did not write (Mbed TLS, as Zephyr: python-mbedtls in
/// `Tests/Scripts/dtls/dtls_front.py`, relaying to a plain simulator): handshake with a PSK and with
/// certificates, message size, retransmission of a lost flight, and the errors of a device that
/// does not speak DTLS.
final class DTLSTransportTests: XCTestCase {
    /// A plain virtual device on a free loopback port.
    private func serve() async throws -> (UDPSimulatorServer, Int) {
        let server = UDPSimulatorServer(device: VirtualDevice(), host: "127.0.0.1", port: 0)
        let port = try await server.start()
        addTeardownBlock { await server.stop() }
        return (server, port)
    }

    /// A DTLS front with `arguments` before a plain virtual device.
    private func front(_ arguments: [String]) async throws -> DTLSFront {
        let (_, upstream) = try await serve()
        let front = try await DTLSFront.start(["--upstream", "127.0.0.1:\(upstream)"] + arguments)
        addTeardownBlock { front.stop() }
        return front
    }

    private func pskArguments(_ credentials: DTLSTestCredentials) -> [String] {
        ["--psk-id", credentials.pskIdentity, "--psk-file", credentials.path("psk.hex")]
    }

    private func psk(_ credentials: DTLSTestCredentials) throws -> DTLSPreSharedKey {
        try DTLSPreSharedKey(identity: credentials.pskIdentity, hexKey: credentials.pskHex)
    }

    func testAnEchoOverAPSKSessionAndItsMessageSize() async throws {
        let credentials = try DTLSTestCredentials.make()
        let front = try await front(pskArguments(credentials))
        let transport = try await DTLSTransport.connect(host: "127.0.0.1", port: front.port, credentials: .preSharedKey(try psk(credentials)))
        let plain = try await UDPTransport.connect(host: "127.0.0.1", port: front.port)
        await plain.close()
        XCTAssertEqual(transport.cipherSuite, "PSK-AES128-CCM8", "Zephyr's PSK suite")
        XCTAssertEqual(transport.maximumMessageSize, plain.maximumMessageSize - 29, "the CCM_8 record's 13-byte header, 8-byte nonce and 8-byte tag come off")
        XCTAssertEqual(transport.endpoint, "udp:127.0.0.1:\(front.port)")
        let client = SMPClient(transport: transport, configuration: SMPClientConfiguration(timeout: .seconds(2)))
        let answer = try await client.send(OSEcho("over DTLS"))
        XCTAssertEqual(answer, "over DTLS")
        let big = String(repeating: "x", count: 1200)
        let bigAnswer = try await client.send(OSEcho(big))
        XCTAssertEqual(bigAnswer, big, "a message near the size limit fits one record")
        await client.close()
        let closed = try await front.process.waitForLine(timeout: 5, what: "close_notify") { $0.contains("the peer closed the session") || $0.contains("going to be closed") ? true : nil }
        XCTAssertTrue(closed)
    }

    func testACertificateIsVerifiedAgainstTheCAAndTheAddress() async throws {
        let credentials = try DTLSTestCredentials.make()
        let front = try await front(["--cert", credentials.path("device.pem"), "--key", credentials.path("device.key")])
        let verified = DTLSClientCredentials.certificate(
            verification: DTLSPeerVerification(certificateAuthorities: credentials.path("ca.pem"), peerName: "127.0.0.1"), clientCertificate: nil)
        let transport = try await DTLSTransport.connect(host: "127.0.0.1", port: front.port, credentials: verified)
        XCTAssertEqual(transport.cipherSuite, "ECDHE-ECDSA-AES128-GCM-SHA256", "the suite of Zephyr's smp_svr sample")
        let client = SMPClient(transport: transport, configuration: SMPClientConfiguration(timeout: .seconds(2)))
        let answer = try await client.send(OSEcho("certified"))
        XCTAssertEqual(answer, "certified")
        await client.close()

        let stranger = DTLSClientCredentials.certificate(
            verification: DTLSPeerVerification(certificateAuthorities: credentials.path("other-ca.pem"), peerName: "127.0.0.1"), clientCertificate: nil)
        do {
            _ = try await DTLSTransport.connect(host: "127.0.0.1", port: front.port, credentials: stranger, handshakeTimeout: .seconds(3))
            XCTFail("a certificate of another CA was accepted")
        } catch {
            XCTAssertTrue(error.message.contains("the device's certificate failed verification: unable to get local issuer certificate"), error.message)
            XCTAssertTrue(error.message.contains("CN=smp-device"), error.message)
            XCTAssertTrue(error.hint?.contains("ca=") == true, "\(error)")
        }
    }

    func testNoDTLSServerIsReportedAfterTheHandshakeTimeout() async throws {
        let credentials = try DTLSTestCredentials.make()
        let (_, port) = try await serve()
        let key = try psk(credentials)
        let connecting = Task { try await DTLSTransport.connect(host: "127.0.0.1", port: port, credentials: .preSharedKey(key), handshakeTimeout: .milliseconds(1500)) }
        guard case .failure(let error)? = await outcomeWhileTheClockStands(of: connecting), let failure = error as? SMPTransportError else {
            return XCTFail("a plain UDP device completed a DTLS handshake")
        }
        // What ended it: the handshake's own timeout, which names the likely cause.
        XCTAssertEqual(
            failure.message, "udp:127.0.0.1:\(port): the device does not answer a DTLS handshake — it may run plain UDP: try without dtls=1")
    }

    func testNothingListeningIsReportedAtOnce() async throws {
        let credentials = try DTLSTestCredentials.make()
        let (server, port) = try await serve()
        await server.stop()
        let key = try psk(credentials)
        do {
            _ = try await DTLSTransport.connect(host: "127.0.0.1", port: port, credentials: .preSharedKey(key), handshakeTimeout: .seconds(5))
            XCTFail("connected to nothing")
        } catch {
            XCTAssertEqual(error.kind, .refused, "\(error)")
        }
    }

    /// Against Mbed TLS (python-mbedtls) with the first handshake datagram lost: the ClientHello is
    /// sent again after 1 s, and the relayed SMP works.
    func testALostFlightIsSentAgainToMbedTLS() async throws {
        let credentials = try DTLSTestCredentials.make()
        let front = try await front(pskArguments(credentials) + ["--drop-first", "1"])
        let transport = try await DTLSTransport.connect(host: "127.0.0.1", port: front.port, credentials: .preSharedKey(try psk(credentials)))
        // The front drops the first ClientHello: the handshake completed, so it was sent again.
        let client = SMPClient(transport: transport, configuration: SMPClientConfiguration(timeout: .seconds(2)))
        let answer = try await client.send(OSEcho("through mbedtls"))
        XCTAssertEqual(answer, "through mbedtls")
        await client.close()
    }
}
