import Foundation
import SMPTestSupport
import XCTest

/// The built `smpctl` over DTLS against a DTLS stack we did not write: Mbed TLS (python-mbedtls,
/// `Tests/Scripts/dtls/dtls_front.py`, the stack Zephyr's `CONFIG_MCUMGR_TRANSPORT_UDP_DTLS` uses)
/// in front of Zephyr's own SMP server (the native_sim `udp` fixture): echo and a file put/get with
/// a PSK (its first handshake datagram lost) and with a certificate, both fronts at once as a
/// many-device run, and Mbed TLS's answers to a wrong key and an unknown identity.
final class DTLSZephyrFixtureTests: XCTestCase {
    /// The native_sim `udp` fixture (port 1337) and a front for each argument list.
    private func zephyrBehind(_ fronts: [[String]]) async throws -> [DTLSFront] {
        let folder = try ZephyrFixtureFolder.require()
        let device = try await NativeSimDevice.start(try folder.fixture(target: "native_sim", config: "udp"), in: folder)
        addTeardownBlock { device.stop() }
        var started: [DTLSFront] = []
        for arguments in fronts {
            let front = try await DTLSFront.start(["--upstream", "127.0.0.1:1337"] + arguments)
            addTeardownBlock { front.stop() }
            started.append(front)
        }
        return started
    }

    private func pskArguments(_ credentials: DTLSTestCredentials) -> [String] {
        ["--psk-id", credentials.pskIdentity, "--psk-file", credentials.path("psk.hex")]
    }

    func testEchoFilesAndManyDevicesThroughMbedTLSToZephyr() async throws {
        let credentials = try DTLSTestCredentials.make()
        let fronts = try await zephyrBehind([
            pskArguments(credentials) + ["--drop-first", "1"],
            ["--cert", credentials.path("device.pem"), "--key", credentials.path("device.key")],
        ])
        let connections = [
            "udp:127.0.0.1:\(fronts[0].port)?dtls=1&psk-id=\(credentials.pskIdentity)&psk-file=\(credentials.path("psk.hex"))",
            "udp:127.0.0.1:\(fronts[1].port)?dtls=1&ca=\(credentials.path("ca.pem"))&server-name=localhost",
        ]
        let folder = try FileSystemTestFolder(self)
        for (index, connection) in connections.enumerated() {
            // One file at a time: the fixture's file system holds about 7 KB.
            let content = Array(FileSystemTestFolder.content(5_000).reversed().prefix(index == 0 ? 5_000 : 4_000))
            let local = try folder.write("data-\(index).bin", content)
            let echo = try await SMPCtl.run(["os", "echo", "hello zephyr", "-c", connection])
            assertSuccess(echo)
            XCTAssertEqual(echo.stdout, "hello zephyr\n")
            let remote = "/lfs1/dtls.bin"
            let put = try await SMPCtl.run(["fs", "put", local, remote, "--verify", "-c", connection], timeout: 60)
            assertExit(put, 0)
            XCTAssertTrue(put.stdout.contains("verified"), "\(put)")
            let back = (folder.path as NSString).appendingPathComponent("back-\(index).bin")
            let get = try await SMPCtl.run(["fs", "get", remote, back, "--verify", "-c", connection], timeout: 60)
            assertExit(get, 0)
            XCTAssertEqual(folder.read("back-\(index).bin"), content)
        }
        let dropped = try await fronts[0].process.waitForLine(timeout: 1, what: "a dropped datagram") { $0.contains("dropped a handshake datagram") ? true : nil }
        XCTAssertTrue(dropped, "the front dropped the first ClientHello and smpctl sent it again")

        let targets = try targetsFile(connections, labels: ["psk", "certificate"])
        let many = try await SMPCtl.run(["os", "echo", "both", "--targets", targets])
        assertExit(many, 0)
        XCTAssertTrue(many.stdout.contains("psk: both") && many.stdout.contains("certificate: both"), "\(many)")
        for run in [many] {
            XCTAssertFalse(run.stdout.contains(credentials.pskHex) || run.stderr.contains(credentials.pskHex), "\(run)")
        }
    }

    func testMbedTLSRefusingAKeyOrAnIdentityIsNamed() async throws {
        let credentials = try DTLSTestCredentials.make()
        let fronts = try await zephyrBehind([pskArguments(credentials)])
        let wrongKey = try await SMPCtl.run(
            ["os", "echo", "hi", "-c", "udp:127.0.0.1:\(fronts[0].port)?dtls=1&psk-id=\(credentials.pskIdentity)&psk=0123456789abcdef0123456789abcdef&timeout=3"])
        assertExit(wrongKey, 69)
        assertStderr(wrongKey, contains: "did not accept the PSK for identity \"\(credentials.pskIdentity)\" (wrong key)")
        XCTAssertFalse(wrongKey.stderr.contains("0123456789abcdef"), wrongKey.stderr)
        let unknown = try await SMPCtl.run(
            ["os", "echo", "hi", "-c", "udp:127.0.0.1:\(fronts[0].port)?dtls=1&psk-id=stranger&psk-file=\(credentials.path("psk.hex"))&timeout=3"])
        assertExit(unknown, 69)
        assertStderr(unknown, contains: "the device does not know PSK identity \"stranger\"")
    }
}
