import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `smpctl ports` and `smpctl targets` with real pseudo-terminals, which discovery does not list:
/// one named by its path is listed and probed, as `-c serial:/dev/pts/N` reaches it; a pattern
/// (`targets -c 'serial:/dev/pts/*'`) lists every pty but never the multiplexer `/dev/pts/ptmx`.
final class PortsPseudoTerminalTests: XCTestCase {
    /// The virtual device served on a pty, and that pty's `/dev/pts/N` path.
    private func servedPseudoTerminal() async throws -> (ServedSerialDevice, String) {
        let served = try await startSerialDevice()
        guard let resolved = realpath(served.linkPath, nil) else { throw TerminalFailure("\(served.linkPath) does not resolve") }
        defer { free(resolved) }
        let pty = String(cString: resolved)
        XCTAssertTrue(pty.hasPrefix("/dev/pts/"), pty)
        return (served, pty)
    }

    func testANamedPseudoTerminalIsListedAndProbed() async throws {
        let (served, pty) = try await servedPseudoTerminal()
        for named in [pty, served.linkPath] {
            let run = try await SMPCtl.run(["ports", named, "--probe", "--probe-timeout", "5", "--json"])
            assertSuccess(run)
            let ports = try XCTUnwrap(try run.jsonDocument()["ports"]?.array, "\(run)")
            XCTAssertEqual(ports.map { $0["path"]?.string }, [named], "\(run)")
            XCTAssertEqual(ports.first?["probe"]?["result"]?.string, "answered", "\(run)")
        }
        let listing = try await SMPCtl.run(["ports", "--all"])
        assertSuccess(listing)
        XCTAssertFalse(listing.stdout.contains(pty + " "), "\(listing)")
        XCTAssertTrue(listing.stdout.contains("pseudo-terminals are listed only when named: smpctl ports /dev/pts/N"), "\(listing)")
    }

    func testPatternsNeverMatchTheMultiplexer() async throws {
        let (_, pty) = try await servedPseudoTerminal()
        let targets = try await SMPCtl.run(["targets", "-c", "serial:/dev/pts/*", "--json"])
        assertSuccess(targets)
        let addresses = try XCTUnwrap(try targets.jsonDocument()["targets"]?.array, "\(targets)").compactMap { $0["address"]?.string }
        XCTAssertTrue(addresses.contains(pty), "\(targets)")
        XCTAssertFalse(addresses.contains { $0.hasSuffix("ptmx") }, "\(targets)")
        let multiplexer = try await SMPCtl.run(["ports", "/dev/pts/ptmx"])
        assertExit(multiplexer, 69)
    }
}
