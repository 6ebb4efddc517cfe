import Foundation
import SMPTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `smpctl simulate --udp … --dtls-*`: what it announces, and OpenSSL's own client (an
/// implementation this project did not write) completing handshakes against it.
final class SimulateDTLSCommandTests: XCTestCase {
    func testOpenSSLClientCompletesAPreSharedKeyHandshake() async throws {
        let files = try DTLSTestCredentials.make()
        let (simulator, endpoint) = try await startSimulateProcess([
            "--dtls-psk-id", files.pskIdentity, "--dtls-psk-file", files.path("psk.hex"),
        ])
        let banner = simulator.stdout
        XCTAssertTrue(banner.contains(", DTLS with the pre-shared key identity \"\(files.pskIdentity)\")\n"), banner)
        XCTAssertTrue(
            banner.contains("try: smpctl -c '\(endpoint)?dtls=1&psk-id=\(files.pskIdentity)&psk-file=\(files.path("psk.hex"))' os info"),
            banner)
        XCTAssertFalse(banner.contains(files.pskHex), "the key is never printed")
        let port = try XCTUnwrap(endpoint.split(separator: ":").last.map(String.init))
        // OpenSSL's default choice, and the suite mbedTLS/Zephyr PSK setups use.
        for cipher in [nil, "PSK-AES128-CCM8"] {
            let handshake = try openSSLClient(
                port: port, ["-psk_identity", files.pskIdentity, "-psk", files.pskHex] + (cipher.map { ["-cipher", $0] } ?? []))
            XCTAssertTrue(handshake.contains("Protocol version: DTLSv1.2"), handshake)
            XCTAssertTrue(handshake.contains("Ciphersuite: \(cipher ?? "")"), handshake)
        }
        // A wrong key: the records are dropped, as mbedTLS does; the client waits in vain.
        let wrongKey = try openSSLClient(
            port: port, ["-psk_identity", files.pskIdentity, "-psk", String(repeating: "42", count: 16)], expectAnEnd: false)
        XCTAssertFalse(wrongKey.contains("CONNECTION ESTABLISHED"), wrongKey)
        XCTAssertTrue(simulator.stderr.isEmpty || !simulator.stderr.contains(files.pskHex))
    }

    func testOpenSSLClientVerifiesTheCertificateAndGivesItsOwn() async throws {
        let files = try DTLSTestCredentials.make()
        let (simulator, endpoint) = try await startSimulateProcess([
            "--dtls-cert", files.path("device.pem"), "--dtls-key", files.path("device.key"), "--dtls-ca", files.path("ca.pem"),
        ])
        XCTAssertTrue(
            simulator.stdout.contains(
                ", DTLS with certificate \(files.path("device.pem")), client certificates signed by \(files.path("ca.pem")) required)"),
            simulator.stdout)
        XCTAssertTrue(simulator.stdout.contains("?dtls=1&ca=CA.pem&cert=CLIENT.pem&key=CLIENT.key' os info"), simulator.stdout)
        let port = try XCTUnwrap(endpoint.split(separator: ":").last.map(String.init))
        let verified = try openSSLClient(port: port, [
            "-CAfile", files.path("ca.pem"), "-verify_return_error", "-verify_hostname", "localhost",
            "-cert", files.path("client.pem"), "-key", files.path("client.key"),
        ])
        XCTAssertTrue(verified.contains("CONNECTION ESTABLISHED") && verified.contains("Verification: OK"), verified)
        let anonymous = try openSSLClient(port: port, ["-CAfile", files.path("ca.pem")])
        XCTAssertFalse(anonymous.contains("CONNECTION ESTABLISHED"), anonymous)
    }

    func testBadDTLSOptionsAreUsageErrors() async throws {
        let cases: [([String], String)] = [
            (["--dtls-psk-id", "a"], "--dtls-psk-id and --dtls-psk-file go together"),
            (["--dtls-psk-file", "/k"], "--dtls-psk-id and --dtls-psk-file go together"),
            (["--dtls-cert", "/c"], "--dtls-cert and --dtls-key go together"),
            (["--dtls-psk-id", "a", "--dtls-psk-file", "/k", "--dtls-cert", "/c", "--dtls-key", "/k"], "choose one DTLS credential"),
            (["--dtls-psk-id", "a", "--dtls-psk-file", "/k", "--dtls-ca", "/ca"], "--dtls-ca checks client certificates"),
            (["--serial-link", "/tmp/smpctl-dtls-none", "--dtls-psk-id", "a", "--dtls-psk-file", "/k"], "add --udp HOST:PORT"),
        ]
        for (options, message) in cases {
            let run = try await SMPCtl.run(["simulate"] + options, timeout: 10)
            assertExit(run, 64)
            assertStderr(run, contains: message)
            XCTAssertEqual(run.stdout, "", "\(options)")
        }
    }

    func testUnusableCredentialFilesAreDataErrorsNamingTheFile() async throws {
        let files = try DTLSTestCredentials.make()
        let missing = files.path("no-such.hex")
        let absent = try await SMPCtl.run(["simulate", "--udp", "127.0.0.1:0", "--dtls-psk-id", "a", "--dtls-psk-file", missing], timeout: 10)
        assertExit(absent, 65)
        assertStderr(absent, contains: "\(missing): cannot read the file: No such file or directory")
        let mismatch = try await SMPCtl.run(
            ["simulate", "--udp", "127.0.0.1:0", "--dtls-cert", files.path("device.pem"), "--dtls-key", files.path("client.key")], timeout: 10)
        assertExit(mismatch, 65)
        assertStderr(mismatch, contains: "\(files.path("client.key")): this private key does not belong to the certificate")
    }

    /// `openssl s_client -dtls1_2 -brief` against 127.0.0.1:PORT with stdin closed: it completes
    /// the handshake (or fails) and leaves, or (`expectAnEnd` false) is stopped after 4 s; what it printed.
    private func openSSLClient(port: String, _ options: [String], expectAnEnd: Bool = true) throws -> String {
        let run: ProcessRunner.Result
        do {
            run = try ProcessRunner.run(
                "openssl", ["s_client", "-dtls1_2", "-brief", "-connect", "127.0.0.1:\(port)", "-timeout"] + options, input: "",
                timeout: expectAnEnd ? 20 : 4)
        } catch {
            try ExternalTool.unavailable("the openssl command cannot run: \(error)")
        }
        if expectAnEnd { XCTAssertFalse(run.timedOut, run.stdout + run.stderr) }
        return run.stdout + run.stderr
    }
}
