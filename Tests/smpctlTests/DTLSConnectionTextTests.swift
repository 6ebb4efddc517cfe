import Foundation
import XCTest
@testable import smpctl

/// DTLS connection text in the CLI, before any device is reached: a PSK is never printed (errors,
/// JSON, pasted command lines), profiles keep paths and refuse keys, and options that a profile's
/// keys combine badly with the connection string are a usage error.
final class DTLSConnectionTextTests: XCTestCase {
    private let key = "5ec2e75ec2e75ec2e75ec2e75ec2e7aa"

    /// A fresh config home, and the environment that selects it.
    private func configHome() throws -> (file: String, environment: [String: String]) {
        let folder = try FileSystemTestFolder(self)
        return ((folder.path as NSString).appendingPathComponent("smpctl/config.yaml"), ["SMPCTL_CONFIG": "", "XDG_CONFIG_HOME": folder.path])
    }

    func testAMistakeNextToAPSKDoesNotPrintIt() async throws {
        let run = try await SMPCtl.run(["-c", "udp:127.0.0.1:1?dtls=1&psk-id=a&psk=\(key)&colour=blue", "os", "echo", "hi", "--json"])
        try assertErrorDocument(run, name: "usage-error", code: 64, messageContains: ["psk=<hidden>&colour=blue", "unknown option for udp"])
        XCTAssertFalse(run.stdout.contains(key) || run.stderr.contains(key), "\(run)")
        let bad = try await SMPCtl.run(["-c", "udp:127.0.0.1:1?dtls=1&psk-id=a&psk=\(key)zz", "os", "echo", "hi"])
        assertExit(bad, 64)
        assertStderr(bad, contains: "\"psk=<hidden>\": expected the key as hex digits")
        XCTAssertFalse(bad.stderr.contains(key), bad.stderr)
    }

    func testCredentialsWithoutDTLSAreAUsageError() async throws {
        let run = try await SMPCtl.run(["-c", "udp:127.0.0.1:1?psk-id=a&psk-file=k.hex", "os", "echo", "hi"])
        assertExit(run, 64)
        assertStderr(run, contains: "\"psk-id=a\": psk-id= is a DTLS option: add dtls=1", "udp:192.0.2.1?dtls=1&psk-id=ID&psk-file=key.hex")
    }

    func testAProfileRefusesAPSKAndSavesAbsolutePaths() async throws {
        let (file, environment) = try configHome()
        let refused = try await SMPCtl.run(
            ["profile", "add", "lab", "-c", "udp:127.0.0.1?dtls=1&psk-id=a&psk=\(key)"], environment: environment)
        assertExit(refused, 64)
        assertStderr(refused, contains: "a profile stores the path of a key, not the key: use psk-file=PATH")
        XCTAssertFalse(refused.stderr.contains(key), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file), "nothing written")

        let added = try await SMPCtl.run(
            ["profile", "add", "lab", "-c", "udp:127.0.0.1?dtls=1&ca=./certs/ca.pem&cert=/etc/c.pem&key=c.key&server-name=smp-device"],
            environment: environment)
        assertSuccess(added)
        let directory = FileManager.default.currentDirectoryPath
        let text = try String(contentsOfFile: file, encoding: .utf8)
        XCTAssertTrue(
            text.contains("connection: udp:127.0.0.1?dtls=1&ca=\(directory)/certs/ca.pem&cert=/etc/c.pem&key=\(directory)/c.key&server-name=smp-device"),
            text)
    }

    func testAPSKWrittenIntoTheConfigFileIsRefused() async throws {
        let (file, environment) = try configHome()
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try "profiles:\n  lab:\n    connection: udp:127.0.0.1:1?dtls=1&psk-id=a&psk-file=k.hex\n    psk: \(key)\n".write(
            toFile: file, atomically: true, encoding: .utf8)
        let run = try await SMPCtl.run(["-p", "lab", "os", "echo", "hi"], environment: environment)
        assertExit(run, 65)
        assertStderr(run, contains: "profiles.lab.psk: a profile stores the path of a key, not the key: use psk-file=PATH")
        XCTAssertFalse(run.stderr.contains(key), run.stderr)
    }

    func testAProfilesKeysMustMakeSenseWithItsConnection() async throws {
        let (file, environment) = try configHome()
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try "profiles:\n  lab:\n    connection: udp:127.0.0.1:1\n    dtls: 1\n".write(toFile: file, atomically: true, encoding: .utf8)
        let run = try await SMPCtl.run(["-p", "lab", "os", "echo", "hi"], environment: environment)
        assertExit(run, 64)
        assertStderr(run, contains: "udp:127.0.0.1:1 with the DTLS settings of profile \"lab\": dtls=1 needs credentials")
    }

    func testPastedCommandLinesHideThePSK() {
        let line = ShellQuoting.commandLine(["smpctl", "fs", "get", "/lfs/a", "-c", "udp:h?dtls=1&psk-id=a&psk=\(key)"])
        XCTAssertEqual(line, "smpctl fs get /lfs/a -c 'udp:h?dtls=1&psk-id=a&psk=<hidden>'")
        XCTAssertEqual(
            ProfileAddCommand.absolutePaths(in: "udp:10.0.0.[1-4]?dtls=1&psk-id=a&psk-file=k.hex&timeout=2", from: "/home/me/"),
            "udp:10.0.0.[1-4]?dtls=1&psk-id=a&psk-file=/home/me/k.hex&timeout=2")
    }
}
