import Foundation
import SMP
import SMPBluetooth
import SMPTestSupport
import XCTest

/// Clear errors when there is no bus, no bluetoothd, no adapter, or the adapter is off.
final class BlueZSetupErrorTests: XCTestCase {
    private func openError(_ options: BLEConnectOptions) async -> SMPTransportError? {
        do {
            _ = try await BLETransport.open(.address(MockedPeripheral.address), options: options)
            return nil
        } catch {
            return error
        }
    }

    func testNoBus() async {
        let error = await openError(BLEConnectOptions(timeout: .seconds(1), busAddress: "unix:path=/nonexistent/bus"))
        XCTAssertEqual(error?.kind, .unavailable)
        XCTAssertTrue(error?.message.contains("the system D-Bus is unreachable: cannot connect to unix:path=/nonexistent/bus") == true, "\(String(describing: error))")
    }

    func testBluetoothdAbsent() async throws {
        let bus = try startBareBus()
        defer { bus.terminate() }
        let error = await openError(BLEConnectOptions(timeout: .seconds(1), busAddress: bus.address))
        XCTAssertEqual(error?.kind, .unavailable)
        XCTAssertTrue(error?.message.contains("bluetoothd is not running on the system bus") == true, "\(String(describing: error))")
    }

    func testNoAdapter() async throws {
        let peripheral = try await startPeripheral(["--no-adapter"])
        let error = await openError(peripheral.options())
        XCTAssertEqual(error?.kind, .notFound)
        XCTAssertTrue(error?.message.contains("no Bluetooth adapter: is bluetoothd running and is there a controller?") == true, "\(String(describing: error))")
    }

    func testAdapterPoweredOff() async throws {
        let peripheral = try await startPeripheral(["--powered", "0"])
        let error = await openError(peripheral.options())
        XCTAssertEqual(error?.kind, .unavailable)
        XCTAssertEqual(error?.hint, "power it on: bluetoothctl power on")
    }

    func testUnknownAdapter() async throws {
        let peripheral = try await startPeripheral()
        var options = peripheral.options()
        options.adapter = "hci7"
        let error = await openError(options)
        XCTAssertEqual(error?.kind, .notFound)
        XCTAssertEqual(error?.hint, "adapters present: hci0")
    }
}

/// A D-Bus daemon with nobody on it but the test.
private struct BareBus {
    let process: Process
    let address: String

    /// Kills the daemon. (SIGKILL: it inherits the test thread's blocked SIGTERM; and not
    /// `waitUntilExit()`, which from a task spins on a run loop that never learns of the exit.)
    func terminate() {
        kill(process.processIdentifier, SIGKILL)
    }
}

private func startBareBus() throws -> BareBus {
    let daemon = "/usr/bin/dbus-daemon"
    guard FileManager.default.isExecutableFile(atPath: daemon) else {
        try ExternalTool.unavailable("dbus-daemon is not installed (apt-get install dbus)")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: daemon)
    process.arguments = ["--session", "--nofork", "--print-address=1"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    var text = ""
    while !text.contains("\n") {
        let chunk = output.fileHandleForReading.availableData
        guard !chunk.isEmpty else { break }
        text += String(decoding: chunk, as: UTF8.self)
    }
    guard let line = text.split(separator: "\n").first, line.hasPrefix("unix:") else {
        process.terminate()
        throw BareBusError(reason: "dbus-daemon printed no address: \(text)")
    }
    return BareBus(process: process, address: String(line))
}

private struct BareBusError: Error {
    var reason: String
}
