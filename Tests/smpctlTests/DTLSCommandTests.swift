import Foundation
import SMP
import SMPSimulator
import SMPTestSupport
import SMPUDP
import XCTest

/// The built `smpctl` over DTLS (`udp:…?dtls=1&…`) against the virtual device served with DTLS
/// (the simulator's server role of the same OpenSSL engine): every command kind with a PSK and with
/// certificates, many devices at once, and each failure with its own error; no secret is printed.
final class DTLSCommandTests: XCTestCase {
    /// A virtual device served with DTLS `credentials` on a free loopback port.
    private func startDTLSDevice(
        _ credentials: DTLSServerCredentials, configuration: VirtualDeviceConfiguration = .zephyrForTests
    ) async throws -> ServedDevice {
        let device = VirtualDevice(configuration: configuration)
        let server = UDPSimulatorServer(device: device, host: "127.0.0.1", port: 0, dtls: try DTLSContext(server: credentials))
        try await server.start()
        addTeardownBlock { await server.stop() }
        let reported = await server.endpoint
        let endpoint = try XCTUnwrap(reported)
        return ServedDevice(device: device, server: server, endpoint: endpoint)
    }

    private func pskDevice(
        _ credentials: DTLSTestCredentials, configuration: VirtualDeviceConfiguration = .zephyrForTests
    ) async throws -> ServedDevice {
        try await startDTLSDevice(
            .preSharedKey(try DTLSPreSharedKey(identity: credentials.pskIdentity, hexKey: credentials.pskHex)), configuration: configuration)
    }

    private func certificateDevice(
        _ credentials: DTLSTestCredentials, certificate: String = "device", clientAuthorities: String? = nil,
        configuration: VirtualDeviceConfiguration = .zephyrForTests
    ) async throws -> ServedDevice {
        let files = DTLSCertificateFiles(certificate: credentials.path("\(certificate).pem"), privateKey: credentials.path("\(certificate).key"))
        return try await startDTLSDevice(.certificate(files, clientCertificateAuthorities: clientAuthorities), configuration: configuration)
    }

    /// `?dtls=1&psk-id=…&psk-file=…`.
    private func pskOptions(_ credentials: DTLSTestCredentials) -> String {
        "dtls=1&psk-id=\(credentials.pskIdentity)&psk-file=\(credentials.path("psk.hex"))"
    }

    /// `?dtls=1&ca=…`.
    private func certificateOptions(_ credentials: DTLSTestCredentials, ca: String = "ca") -> String {
        "dtls=1&ca=\(credentials.path("\(ca).pem"))"
    }

    /// Fails when the run printed the PSK anywhere.
    private func assertNoSecret(_ run: SMPCtlRun, _ credentials: DTLSTestCredentials, file: StaticString = #filePath, line: UInt = #line) {
        for secret in [credentials.pskHex, credentials.pskHex.uppercased()] {
            XCTAssertFalse(run.stdout.contains(secret) || run.stderr.contains(secret), "the PSK was printed\n\(run)", file: file, line: line)
        }
        XCTAssertFalse(run.stdout.contains("PRIVATE KEY") || run.stderr.contains("PRIVATE KEY"), "a key was printed\n\(run)", file: file, line: line)
    }

    // MARK: Commands

    func testEchoWithAPSKAndWithACertificate() async throws {
        let credentials = try DTLSTestCredentials.make()
        let psk = try await pskDevice(credentials)
        let overPSK = try await SMPCtl.run(["os", "echo", "hello", "-c", "\(psk.endpoint)?\(pskOptions(credentials))"])
        assertSuccess(overPSK)
        XCTAssertEqual(overPSK.stdout, "hello\n")
        let handshakes = await psk.server.dtlsHandshakesCompleted
        XCTAssertEqual(handshakes, 1, "one handshake per connection")

        let certificate = try await certificateDevice(credentials)
        let overCertificate = try await SMPCtl.run(["os", "echo", "hello", "-v", "-c", "\(certificate.endpoint)?\(certificateOptions(credentials))"])
        assertExit(overCertificate, 0)
        XCTAssertEqual(overCertificate.stdout, "hello\n")
        XCTAssertEqual(overCertificate.stderr.components(separatedBy: "DTLS handshake complete").count, 2, "-v names the cipher once\n\(overCertificate)")
        assertStderr(overCertificate, contains: "ECDHE-ECDSA")
        let plain = await certificate.server.ignoredPlainDatagrams
        XCTAssertEqual(plain, 0, "every datagram was DTLS")
    }

    func testImageUploadAndUpgradeOverDTLS() async throws {
        let credentials = try DTLSTestCredentials.make()
        let app = try UpgradeFiles.file("app-v2")
        let served = try await pskDevice(credentials, configuration: UpgradeFiles.device())
        let run = try await SMPCtl.run(["upgrade", app.path, "-c", "\(served.endpoint)?\(pskOptions(credentials))"], timeout: 60)
        assertExit(run, 0)
        XCTAssertTrue(run.stdout.contains("upgraded with \(app.path)"), "\(run)")
        assertNoSecret(run, credentials)

        let image = try UploadTestImages.signed()
        let certificate = try await certificateDevice(credentials, configuration: UpgradeFiles.device())
        let upload = try await SMPCtl.run(["image", "upload", image.file, "--json", "-c", "\(certificate.endpoint)?\(certificateOptions(credentials))"])
        assertExit(upload, 0)
        XCTAssertEqual(try UploadOutput(upload).done?["size"]?.int, image.fileSize, "\(upload)")
    }

    /// An upgrade (with its reset and reconnection) and an image upload through Mbed TLS
    /// (python-mbedtls, `dtls_front.py`, a DTLS server we did not write) in front of a plain
    /// virtual device, with a PSK and with a certificate.
    func testUpgradeAndUploadThroughMbedTLS() async throws {
        let credentials = try DTLSTestCredentials.make()
        let app = try UpgradeFiles.file("app-v2")
        let image = try UploadTestImages.signed()
        let fronts: [(arguments: [String], options: String)] = [
            (["--psk-id", credentials.pskIdentity, "--psk-file", credentials.path("psk.hex")], pskOptions(credentials)),
            (["--cert", credentials.path("device.pem"), "--key", credentials.path("device.key")],
             certificateOptions(credentials) + "&server-name=localhost"),
        ]
        for front in fronts {
            let served = try await startDevice(UpgradeFiles.device())
            let dtls = try await DTLSFront.start(["--upstream", String(served.endpoint.dropFirst("udp:".count))] + front.arguments)
            addTeardownBlock { dtls.stop() }
            let connection = "udp:127.0.0.1:\(dtls.port)?\(front.options)"
            let run = try await SMPCtl.run(["upgrade", app.path, "-c", connection], timeout: 90)
            assertExit(run, 0)
            XCTAssertTrue(run.stdout.contains("upgraded with \(app.path)"), "\(run)")
            assertNoSecret(run, credentials)
            let slots = try await listedSlots(served)
            XCTAssertEqual(slots.first, "0/0 2.0.0 ac")
            let upload = try await SMPCtl.run(["image", "upload", image.file, "--json", "-c", connection])
            assertExit(upload, 0)
            XCTAssertEqual(try UploadOutput(upload).done?["size"]?.int, image.fileSize, "\(upload)")
        }
    }

    /// A reset ends the device's DTLS session (here: the server is replaced by a new one on the
    /// same port, with no sessions, as a rebooted Zephyr has none), so the old session's records
    /// go unanswered: the upgrade opens a new session instead of polling the dead one.
    func testAnUpgradeOpensANewSessionAfterTheResetEndedTheOldOne() async throws {
        let credentials = try DTLSTestCredentials.make()
        let app = try UpgradeFiles.file("app-v2")
        let device = VirtualDevice(configuration: UpgradeFiles.device(resetDelay: .milliseconds(200)))
        let context = try DTLSContext(server: .preSharedKey(try DTLSPreSharedKey(identity: credentials.pskIdentity, hexKey: credentials.pskHex)))
        let first = UDPSimulatorServer(device: device, host: "127.0.0.1", port: 0, dtls: context)
        let port = try await first.start()
        let rebooted = Task {
            var resets = device.resets.makeAsyncIterator()
            _ = await resets.next()
            await first.stop()
            let second = UDPSimulatorServer(device: device, host: "127.0.0.1", port: port, dtls: context)
            _ = try? await second.start()
            return second
        }
        addTeardownBlock {
            rebooted.cancel()
            await first.stop()
            await rebooted.value.stop()
        }
        let run = try await SMPCtl.run(["upgrade", app.path, "-c", "udp:127.0.0.1:\(port)?\(pskOptions(credentials))"], timeout: 90)
        assertExit(run, 0)
        assertStderr(run, contains: "reconnected after the reset")
        let handshakes = await rebooted.value.dtlsHandshakesCompleted
        XCTAssertGreaterThanOrEqual(handshakes, 1, "a new session with the rebooted device")
    }

    func testFilePutAndGetOverDTLS() async throws {
        let credentials = try DTLSTestCredentials.make()
        let content = FileSystemTestFolder.content(60_000)
        let folder = try FileSystemTestFolder(self)
        let local = try folder.write("data.bin", content)
        for options in [pskOptions(credentials), certificateOptions(credentials)] {
            let served = try await (options.contains("psk") ? pskDevice(credentials, configuration: .fileSystemDevice())
                : certificateDevice(credentials, configuration: .fileSystemDevice()))
            let connection = "\(served.endpoint)?\(options)"
            let put = try await SMPCtl.run(["fs", "put", local, "/lfs1/data.bin", "--verify", "-c", connection])
            assertExit(put, 0)
            let stored = await served.device.file("/lfs1/data.bin")
            XCTAssertEqual(stored, content)
            let back = (folder.path as NSString).appendingPathComponent("back.bin")
            try? FileManager.default.removeItem(atPath: back)
            let get = try await SMPCtl.run(["fs", "get", "/lfs1/data.bin", back, "--verify", "-c", connection])
            assertExit(get, 0)
            XCTAssertEqual(folder.read("back.bin"), content)
        }
    }

    func testManyDevicesEachWithItsOwnHandshake() async throws {
        let credentials = try DTLSTestCredentials.make()
        var devices: [ServedDevice] = []
        for _ in 0..<3 { devices.append(try await pskDevice(credentials)) }
        let ports = devices.compactMap { $0.endpoint.split(separator: ":").last }.joined(separator: ",127.0.0.1:")
        let selector = "udp:[127.0.0.1:\(ports)]?\(pskOptions(credentials).replacingOccurrences(of: "psk-file=\(credentials.path("psk.hex"))", with: "psk=\(credentials.pskHex)"))"
        let run = try await SMPCtl.run(["os", "echo", "hi", "-c", selector, "--json"])
        assertExit(run, 0)
        let lines = try run.stdout.split(separator: "\n").map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let finished = lines.filter { $0["status"] as? String == "finished" }
        XCTAssertEqual(finished.compactMap { ($0["output"] as? [[String: Any]])?.first?["echo"] as? String }, ["hi", "hi", "hi"], "\(run)")
        XCTAssertTrue(lines.contains { ($0["connection"] as? String)?.hasSuffix("psk=<hidden>") == true }, "the started lines show the connection, hidden\n\(run)")
        for device in devices {
            let handshakes = await device.server.dtlsHandshakesCompleted
            XCTAssertEqual(handshakes, 1)
        }
        assertNoSecret(run, credentials)
    }

    // MARK: Failures

    func testAWrongPSKOrIdentityIsNamed() async throws {
        let credentials = try DTLSTestCredentials.make()
        let served = try await pskDevice(credentials)
        let wrongKey = try await SMPCtl.run(
            ["os", "echo", "hi", "--json", "-c", "\(served.endpoint)?dtls=1&psk-id=\(credentials.pskIdentity)&psk=00112233445566778899aabbccddeeff&timeout=3"])
        assertExit(wrongKey, 69)
        assertStderr(wrongKey, contains: "did not accept the PSK")
        XCTAssertFalse(wrongKey.stdout.contains("00112233445566778899aabbccddeeff") || wrongKey.stderr.contains("00112233445566778899aabbccddeeff"), "\(wrongKey)")
        let unknown = try await SMPCtl.run(["os", "echo", "hi", "-c", "\(served.endpoint)?dtls=1&psk-id=nobody&psk-file=\(credentials.path("psk.hex"))&timeout=3"])
        assertExit(unknown, 69)
        XCTAssertTrue(unknown.stderr.contains("\"nobody\""), "\(unknown)")
        assertNoSecret(unknown, credentials)
    }

    func testCertificateFailuresSayWhichCheckFailed() async throws {
        let credentials = try DTLSTestCredentials.make()
        let served = try await certificateDevice(credentials)
        let otherCA = try await SMPCtl.run(["os", "echo", "hi", "-c", "\(served.endpoint)?\(certificateOptions(credentials, ca: "other-ca"))"])
        assertExit(otherCA, 69)
        assertStderr(otherCA, contains: "the device's certificate failed verification", "CN=smp-device", "ca=")
        let name = try await SMPCtl.run(["os", "echo", "hi", "-c", "\(served.endpoint)?\(certificateOptions(credentials))&server-name=elsewhere.example"])
        assertExit(name, 69)
        assertStderr(name, contains: "the device's certificate failed verification", "server-name=")
        let expired = try await certificateDevice(credentials, certificate: "expired")
        let old = try await SMPCtl.run(["os", "echo", "hi", "-c", "\(expired.endpoint)?\(certificateOptions(credentials))"])
        assertExit(old, 69)
        assertStderr(old, contains: "certificate has expired", "valid ")
        let unverified = try await SMPCtl.run(["os", "echo", "hi", "-c", "\(expired.endpoint)?dtls=1&verify=0"])
        assertExit(unverified, 0)
        XCTAssertEqual(unverified.stdout, "hi\n")
        XCTAssertEqual(
            unverified.stderr,
            "warning: the device's DTLS certificate is not verified (verify=0): anyone on the path can pose as the device\n")
    }

    func testAMissingCredentialFileIsNamed() async throws {
        let run = try await SMPCtl.run(["os", "echo", "hi", "-c", "udp:127.0.0.1:1?dtls=1&psk-id=a&psk-file=/nonexistent/key.hex"])
        assertExit(run, 65)
        assertStderr(run, contains: "/nonexistent/key.hex: cannot read the file")
    }

    func testPlainUDPAndDTLSMeetingTheOtherKindSayWhatToTry() async throws {
        let credentials = try DTLSTestCredentials.make()
        let dtls = try await pskDevice(credentials)
        let plainClient = try await SMPCtl.run(["os", "echo", "hi", "-c", dtls.endpoint, "--timeout", "0.3", "--retries", "0"])
        assertExit(plainClient, 75)
        assertStderr(plainClient, contains: "add dtls=1 and its credentials")
        let ignored = await dtls.server.ignoredPlainDatagrams
        XCTAssertEqual(ignored, 1)

        let plain = try await startDevice()
        let dtlsClient = try await SMPCtl.run(["os", "echo", "hi", "-c", "\(plain.endpoint)?\(pskOptions(credentials))&timeout=2"])
        assertExit(dtlsClient, 69)
        assertStderr(dtlsClient, contains: "the device does not answer a DTLS handshake — it may run plain UDP: try without dtls=1")
    }
}
