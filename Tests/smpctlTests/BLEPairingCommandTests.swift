import Foundation
import SMPSimulator
import SMPTestSupport
import XCTest

/// `smpctl ble pair|bonds|unpair` and pairing from a connection string, through smpctl's own
/// agent, against the mock BlueZ whose device requires an authenticated link (passkey 654321).
/// Standard input is a pipe here: no terminal to ask at.
final class BLEPairingCommandTests: XCTestCase {
    private static let address = "C0:FF:EE:00:00:01"

    /// The mock with the device `Zephyr` in front of a virtual device; its bus for smpctl.
    private func startMock(_ arguments: [String]) async throws -> (mock: BlueZMock, environment: [String: String]) {
        let served = try await startDevice()
        let port = try XCTUnwrap(served.endpoint.split(separator: ":").last.map(String.init))
        let mock = try await startBlueZMock(["--device", "\(Self.address),Zephyr,\(port)", "--passkey", "654321"] + arguments)
        return (mock, ["DBUS_SYSTEM_BUS_ADDRESS": mock.busAddress])
    }

    private func authenticated(_ io: String) async throws -> (mock: BlueZMock, environment: [String: String]) {
        try await startMock(["--security", "authenticate", "--io-capability", io])
    }

    func testPairListUseAndRemoveABond() async throws {
        let (mock, environment) = try await authenticated("DisplayOnly")
        let pair = try await SMPCtl.run(["ble", "pair", Self.address, "--passkey", "654321", "--json"], environment: environment)
        assertExit(pair, 0)
        let paired = try pair.jsonDocument()
        XCTAssertEqual(paired["newlyPaired"]?.bool, true)
        XCTAssertEqual(paired["trusted"]?.bool, true)
        XCTAssertEqual(paired["paired"]?.bool, true)
        let bonds = try await SMPCtl.run(["ble", "bonds", "--json"], environment: environment)
        assertExit(bonds, 0)
        XCTAssertEqual(try bonds.jsonDocument()["devices"]?[0]?["address"]?.string, Self.address)
        let text = try await SMPCtl.run(["ble", "bonds"], environment: environment)
        XCTAssertTrue(text.stdout.contains("paired,bonded,trusted"), text.stdout)
        let echo = try await SMPCtl.run(["os", "echo", "bonded", "-c", "ble:\(Self.address)"], environment: environment)
        assertExit(echo, 0)
        XCTAssertEqual(echo.stdout, "bonded\n")
        let again = try await SMPCtl.run(["ble", "pair", "name=Zephyr"], environment: environment)
        assertExit(again, 0)
        XCTAssertTrue(again.stdout.contains("was paired already"), again.stdout)
        XCTAssertEqual(try mock.stats()["pairings"], 1, "the bond is used as it is")
        let unpair = try await SMPCtl.run(["ble", "unpair", Self.address], environment: environment)
        assertExit(unpair, 0)
        XCTAssertEqual(unpair.stdout, "removed Zephyr (\(Self.address)) and its bond\n")
        let none = try await SMPCtl.run(["ble", "bonds"], environment: environment)
        XCTAssertEqual(none.stdout, "no paired devices\n")
        let gone = try await SMPCtl.run(["ble", "unpair", Self.address], environment: environment)
        assertExit(gone, 69)
        XCTAssertTrue(gone.stderr.contains("knows no such device"), gone.stderr)
    }

    func testAPasskeyInTheConnectionStringPairs() async throws {
        let (_, environment) = try await authenticated("DisplayOnly")
        let echo = try await SMPCtl.run(["os", "echo", "hi", "-c", "ble:\(Self.address)?passkey=654321"], environment: environment)
        assertExit(echo, 0)
        XCTAssertEqual(echo.stdout, "hi\n")
    }

    func testAWrongPasskeySaysSo() async throws {
        let (_, environment) = try await authenticated("DisplayOnly")
        let run = try await SMPCtl.run(["ble", "pair", Self.address, "--passkey", "111111"], environment: environment)
        assertExit(run, 69)
        XCTAssertTrue(run.stderr.contains("pairing failed: wrong passkey"), run.stderr)
    }

    func testWithoutATerminalOrAPasskeyPairingIsRefusedAtOnce() async throws {
        let (_, environment) = try await authenticated("DisplayOnly")
        let run = try await SMPCtl.run(["os", "echo", "x", "-c", "ble:\(Self.address)?pair=1"], environment: environment)
        assertExit(run, 69)
        XCTAssertTrue(run.stderr.contains("standard input is not a terminal"), run.stderr)
        XCTAssertTrue(run.stderr.contains("?passkey=NNNNNN"), run.stderr)
    }

    func testAPasskeyToTypeOnTheDeviceIsPrintedOnce() async throws {
        let (_, environment) = try await authenticated("KeyboardOnly")
        let run = try await SMPCtl.run(["os", "echo", "typed", "-c", "ble:\(Self.address)?pair=1"], environment: environment)
        assertExit(run, 0)
        let line = "Passkey for Zephyr (\(Self.address)): 654321 — type it on the device"
        XCTAssertEqual(run.stderr.components(separatedBy: line).count - 1, 1, run.stderr)
        XCTAssertEqual(run.stdout, "typed\n")
    }

    func testNumericComparisonNeedsATerminalOrConfirm() async throws {
        let (_, environment) = try await authenticated("DisplayYesNo")
        let refused = try await SMPCtl.run(["ble", "pair", Self.address], environment: environment)
        assertExit(refused, 69)
        XCTAssertTrue(refused.stderr.contains("confirm that it displays 654321"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("--confirm"), refused.stderr)
        let accepted = try await SMPCtl.run(["os", "echo", "compared", "-c", "ble:\(Self.address)?confirm=1"], environment: environment)
        assertExit(accepted, 0)
    }

    func testNotPairedAndSilentlyDroppedWritesGetThePairingHint() async throws {
        let (_, environment) = try await startMock(["--security", "encrypt"])
        let refused = try await SMPCtl.run(["os", "echo", "x", "-c", "ble:\(Self.address)"], environment: environment)
        assertExit(refused, 69)
        XCTAssertTrue(refused.stderr.contains("the device requires an encrypted, paired link"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("passkey=NNNNNN"), refused.stderr)
        let (mock, open) = try await startMock([])
        _ = try mock.control("SetResponder", ["silent"])
        let silent = try await SMPCtl.run(["os", "echo", "x", "--timeout", "0.5", "--retries", "0", "-c", "ble:\(Self.address)"], environment: open)
        assertExit(silent, 75)
        XCTAssertTrue(silent.stderr.contains("the link is not paired"), silent.stderr)
    }

    /// At a terminal (a pseudo-terminal from script(1)) the passkey and the number are asked for.
    func testAtATerminalThePasskeyAndTheNumberAreAsked() async throws {
        let smpctl = try SMPCtl.executable()
        for (io, answer, prompt) in [
            ("DisplayOnly", "654321", "Enter the passkey shown on Zephyr (\(Self.address)) (6 digits):"),
            ("DisplayYesNo", "y", "Does Zephyr (\(Self.address)) show 654321? [y/N]"),
        ] {
            let (_, environment) = try await authenticated(io)
            // Pairing needs no SMP traffic, so blocking this thread on the run keeps nothing waiting.
            let run = try ProcessRunner.run(
                "/usr/bin/script", ["-q", "-e", "-c", "\(smpctl) ble pair \(Self.address)", "/dev/null"], input: answer + "\n",
                environment: SMPCtl.isolated.merging(environment) { $1 }, timeout: 30)
            XCTAssertEqual(run.status, 0, "\(io): \(run.stdout)\(run.stderr)")
            XCTAssertTrue(run.stdout.contains(prompt), "\(io): \(run.stdout)")
            XCTAssertTrue(run.stdout.contains("paired and trusted Zephyr"), "\(io): \(run.stdout)")
        }
    }

    func testBadArguments() async throws {
        let passkey = try await SMPCtl.run(["ble", "pair", Self.address, "--passkey", "12345"])
        assertExit(passkey, 64)
        XCTAssertTrue(passkey.stderr.contains("--passkey expects the six digits"), passkey.stderr)
        let address = try await SMPCtl.run(["ble", "unpair", "C0:FF:EE"])
        assertExit(address, 64)
        let option = try await SMPCtl.run(["os", "echo", "-c", "ble:\(Self.address)?passkey=12a"])
        assertExit(option, 64)
        XCTAssertTrue(option.stderr.contains("expected six digits"), option.stderr)
    }
}
