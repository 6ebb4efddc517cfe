import Foundation
import SMPTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `serial:rfc2217://` with the built smpctl against the real ser2net 4 (`telnet(rfc2217)`
/// accepter) serving a native_sim fixture's pty, as a lab host serves a board: echo and a file
/// both ways, a baud rate ser2net applies to the port (read back with `stty`), one it cannot
/// apply, servers that do not speak RFC 2217, a server whose device is missing, Ctrl-C in the
/// middle of a transfer, and a server that goes away in the middle of one.
final class RFC2217CommandTests: XCTestCase {
    /// A native_sim fixture and ser2net serving its pty with `accepter`.
    private func served(_ config: String, accepter: Ser2NetBridge.Accepter = .rfc2217) async throws -> (NativeSimDevice, Ser2NetBridge) {
        let folder = try ZephyrFixtureFolder.require()
        let device = try await NativeSimDevice.start(try folder.fixture(target: "native_sim", config: config), in: folder)
        addTeardownBlock { device.stop() }
        let pty = try XCTUnwrap(device.ptyPath, "no pty in \(device.log)")
        let server = try await Ser2NetBridge.start(exposing: pty, in: device.scratch, accepter: accepter)
        addTeardownBlock { server.stop() }
        return (device, server)
    }

    func testEchoAndFilesBothWays() async throws {
        let (_, server) = try await served("serial_fs")
        XCTAssertTrue(server.connection.hasPrefix("serial:rfc2217://127.0.0.1:"))
        let echo = try await SMPCtl.run(["os", "echo", "hello through telnet", "-c", server.connection])
        assertSuccess(echo)
        XCTAssertEqual(echo.stdout, "hello through telnet\n")

        let folder = try FileSystemTestFolder(self)
        let content = (0..<6_000).map { $0 % 5 == 0 ? UInt8(0xFF) : UInt8(truncatingIfNeeded: $0 &* 7) }
        let local = try folder.write("data.bin", content)
        let put = try await SMPCtl.run(["fs", "put", local, "/lfs1/rfc2217.bin", "--verify", "-c", server.connection], timeout: 60)
        assertExit(put, 0)
        let back = (folder.path as NSString).appendingPathComponent("back.bin")
        let get = try await SMPCtl.run(["fs", "get", "/lfs1/rfc2217.bin", back, "--verify", "-c", server.connection], timeout: 60)
        assertExit(get, 0)
        XCTAssertEqual(folder.read("back.bin"), content)

        // -v notes that the pty has no DTR and RTS for ser2net to raise; without -v nothing is said.
        let slower = try await SMPCtl.run(["os", "echo", "at 57600", "-c", server.connection + "?baud=57600", "-v"])
        assertExit(slower, 0)
        XCTAssertEqual(slower.stdout, "at 57600\n")
        XCTAssertTrue(slower.stderr.contains("did not confirm DTR, RTS"), "\(slower)")
    }

    /// A server that answers a setting with another value refused it; one that never answers
    /// ignored it. ser2net on a pseudo-terminal confirms every rate smpctl accepts, so socat plays
    /// ser2net 4.3's recorded bytes here: its greeting, then its answers but the baud rate's (or
    /// its one-byte answer to a rate it cannot set).
    func testASettingTheServerRefusesOrIgnoresIsNamed() async throws {
        let greeting: [UInt8] = [255, 251, 3, 255, 253, 3, 255, 253, 0, 255, 251, 0, 255, 253, 44]
        func answer(_ code: UInt8, _ value: [UInt8]) -> [UInt8] { [255, 250, 44, code] + value + [255, 240] }
        let others = answer(102, [8]) + answer(103, [1]) + answer(104, [1]) + answer(105, [1])
        for (answers, expected) in [(others, "did not confirm the baud rate (115200 baud) within 3 s"),
                                    (answer(101, [0x0E]) + others, "did not apply 115200 baud: it answered the value 0e")] {
            let port = try await scriptedServer(greeting: greeting, answers: answers)
            let run = try await SMPCtl.run(["os", "echo", "x", "-c", "serial:rfc2217://127.0.0.1:\(port)"])
            // 65, as for a rate a local serial adapter cannot make.
            XCTAssertEqual(run.status, 65, "\(run)")
            assertStderr(run, contains: "serial:rfc2217://127.0.0.1:\(port): the server " + expected, "?baud=")
        }
    }

    /// socat on a free port sending `greeting` to each client, then (after smpctl's requests have
    /// gone out) `answers`, then holding the connection.
    private func scriptedServer(greeting: [UInt8], answers: [UInt8]) async throws -> Int {
        let socat = try FixtureTools.require("socat", package: "socat")
        let scratch = try FixtureScratch.makeFolder("rfc2217-scripted")
        addTeardownBlock { try? FileManager.default.removeItem(at: scratch) }
        try Data(greeting).write(to: scratch.appendingPathComponent("greeting.bin"))
        try Data(answers).write(to: scratch.appendingPathComponent("answers.bin"))
        try "cat greeting.bin; sleep 0.5; cat answers.bin; sleep 5\n".write(
            to: scratch.appendingPathComponent("serve.sh"), atomically: true, encoding: .utf8)
        let port = try LoopbackPorts.freeTCPPort()
        let process = try FixtureProcess(
            name: "socat", executable: socat,
            arguments: ["TCP-LISTEN:\(port),bind=127.0.0.1,reuseaddr,fork", "EXEC:sh serve.sh"],
            workingDirectory: scratch, logURL: scratch.appendingPathComponent("socat.log"))
        addTeardownBlock { process.stop(grace: 0) }
        try await LoopbackPorts.waitUntilAccepting(port: port, process: process, timeout: 10)
        return port
    }

    /// Servers without RFC 2217: ser2net's plain telnet and raw accepters, a port whose device is
    /// missing, and nothing listening. Each named with what to do instead.
    func testServersThatCannotServeRFC2217() async throws {
        let (device, telnet) = try await served("serial", accepter: .telnet)
        let refused = try await SMPCtl.run(["os", "echo", "x", "-c", telnet.connection])
        XCTAssertEqual(refused.status, 69, "\(refused)")
        assertStderr(refused, contains: "refused RFC 2217 port control", "telnet(rfc2217)")

        let pty = try XCTUnwrap(device.ptyPath)
        let raw = try await Ser2NetBridge.start(exposing: pty, in: device.scratch, accepter: .raw)
        addTeardownBlock { raw.stop() }
        let silent = try await SMPCtl.run(["os", "echo", "x", "-c", "serial:rfc2217://127.0.0.1:\(raw.port)"])
        XCTAssertEqual(silent.status, 69, "\(silent)")
        assertStderr(silent, contains: "sent no telnet negotiation", "serial:tcp://127.0.0.1:\(raw.port)")

        let missing = try await Ser2NetBridge.start(exposing: "/dev/smpctl-no-such-port", in: device.scratch, accepter: .rfc2217)
        addTeardownBlock { missing.stop() }
        let gone = try await SMPCtl.run(["os", "echo", "x", "-c", missing.connection])
        XCTAssertEqual(gone.status, 69, "\(gone)")
        // ser2net writes why and closes; when smpctl's request is still unread there, the close is
        // a reset, which takes the unread message with it (seen in a full run): the same event.
        if !gone.stderr.contains("reading from the server failed: Connection reset by peer") {
            assertStderr(gone, contains: "the server closed the connection", "Device open failure")
        }
    }

    /// A transfer at 9600 baud: ser2net sets the pty to that rate while smpctl is connected (`stty`
    /// reads it back; ser2net restores the port when the client leaves). Ctrl-C in the middle ends
    /// smpctl (130); the server takes the next client at once and the device answers it.
    func testABaudRateSer2NetAppliesAndCtrlCInTheMiddleOfATransfer() async throws {
        let (device, server) = try await served("serial_fs")
        let pty = try XCTUnwrap(device.ptyPath)
        XCTAssertFalse(try speed(of: pty).contains("speed 9600 baud"), "the fixture's pty starts at another rate")
        let process = try await transferUnderWay(through: server)
        let during = try speed(of: pty)
        XCTAssertTrue(during.contains("speed 9600 baud"), during)
        process.send(SIGINT)
        let status = await process.waitForExit()
        XCTAssertEqual(status, 130, process.stderr)
        let echo = try await SMPCtl.run(["os", "echo", "after", "-c", server.connection])
        assertSuccess(echo)
    }

    /// The server going away in the middle of a transfer is reported as a device that went away.
    func testAServerThatGoesAwayIsReported() async throws {
        let (_, server) = try await served("serial_fs")
        let process = try await transferUnderWay(through: server)
        server.kill()
        let status = await process.waitForExit(timeout: 60)
        XCTAssertEqual(status, 69, "\(process.stdout)\n\(process.stderr)")
        // As for a USB device that vanished: smpctl waits for it to come back, then gives up.
        // A killed server ends the connection with a FIN or, when bytes were still unread, a reset.
        let disappeared = "rfc2217://127.0.0.1:\(server.port): the device disappeared"
        XCTAssertTrue(["(end of file)", "(Connection reset by peer)"].contains { process.stderr.contains("\(disappeared) \($0)") }, process.stderr)
        XCTAssertTrue(process.stderr.contains("error: serial:rfc2217://127.0.0.1:\(server.port): cannot connect: Connection refused"), process.stderr)
    }

    /// A 7,000-byte `fs put` at 9600 baud through `server`, once the device has taken a chunk.
    private func transferUnderWay(through server: Ser2NetBridge) async throws -> BackgroundProcess {
        let folder = try FileSystemTestFolder(self)
        let local = try folder.write("big.bin", FileSystemTestFolder.content(7_000))
        let process = try BackgroundProcess(smpctl: ["fs", "put", local, "/lfs1/big.bin", "--json", "-c", server.connection + "?baud=9600"])
        addTeardownBlock { process.stop() }
        let going = await process.waitForLine { $0.contains("\"event\":\"progress\"") && $0.range(of: #""acknowledged":[1-9]"#, options: .regularExpression) != nil }
        XCTAssertNotNil(going, "the transfer got going\n\(process.stdout)\n\(process.stderr)")
        return process
    }

    /// `stty -a` of a pty.
    private func speed(of pty: String) throws -> String {
        let run = try ProcessRunner.run("stty", ["-F", pty, "-a"], timeout: 10)
        return run.stdout + run.stderr
    }
}
