import Foundation
import SMPSimulator
import SMPTestSupport
import XCTest

/// The `smpmgr` command line (PyPI, pinned in Tests/Scripts/requirements.txt) against an
/// in-process virtual device. smpmgr always talks to UDP port 1337 (``SMPMgr/port``).
enum SMPMgr {
    /// The only UDP port smpmgr reaches.
    static let port = 1337

    /// `smpmgr` next to the Python interpreter in use, else the one on `PATH`.
    static var executable: String {
        let python = ExternalTool.python
        guard python.contains("/") else { return "smpmgr" }
        return URL(fileURLWithPath: python).deletingLastPathComponent().appendingPathComponent("smpmgr").path
    }

    /// Skips locally, fails in CI, unless smpmgr and its Python modules are installed and run.
    static func require(file: StaticString = #filePath, line: UInt = #line) async throws {
        try ExternalTool.requirePythonModules(["smpmgr", "smpclient", "smp"])
        let version = try await run(["--version"])
        if version.status != 0 {
            try ExternalTool.unavailable("\(executable) does not run: \(version.stderr)")
        }
    }

    /// Runs `smpmgr --ip 127.0.0.1 --timeout 3 ARGUMENTS` against the device on ``port``.
    static func device(_ arguments: [String]) async throws -> ProcessRunner.Result {
        try await run(["--ip", "127.0.0.1", "--timeout", "3"] + arguments)
    }

    /// Runs `smpmgr --ble ADDRESS --timeout 5 ARGUMENTS` with BlueZ on the system bus at `busAddress`
    /// (bleak through dbus-fast, which honours `DBUS_SYSTEM_BUS_ADDRESS`).
    static func ble(_ address: String, busAddress: String, _ arguments: [String]) async throws -> ProcessRunner.Result {
        try await run(["--ble", address, "--timeout", "5"] + arguments, environment: ["DBUS_SYSTEM_BUS_ADDRESS": busAddress])
    }

    /// `smpmgr image state-read`, parsed; fails the test when smpmgr fails or prints no state.
    static func imageStates(file: StaticString = #filePath, line: UInt = #line) async throws -> [SMPMgrImageState] {
        let run = try await device(["image", "state-read"])
        XCTAssertEqual(run.status, 0, "smpmgr image state-read failed\nstdout: \(run.stdout)\nstderr: \(run.stderr)", file: file, line: line)
        let states = SMPMgrImageState.parse(run.stdout)
        XCTAssertFalse(states.isEmpty, "no ImageState in smpmgr's output:\n\(run.stdout)", file: file, line: line)
        return states
    }

    /// Runs smpmgr on a thread of its own, so that the wait does not hold one of the few threads
    /// Swift concurrency (and so the in-process device) runs on. A wide terminal keeps rich's
    /// pretty-printed output from wrapping.
    private static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> ProcessRunner.Result {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result {
                    try ProcessRunner.run(executable, arguments, environment: environment.merging(["COLUMNS": "200"]) { $1 }, timeout: 60)
                })
            }.start()
        }
    }
}

/// One slot as `smpmgr image state-read` prints it: smpclient's `ImageState(slot=1,
/// version='3.1.4.15', image=None, hash=HashBytes('EE7A…'), bootable=True, pending=False, …)`,
/// pretty-printed by rich over several lines.
struct SMPMgrImageState: Equatable, CustomStringConvertible {
    var image: Int
    var slot: Int
    var version: String
    /// Lower-case hex, as `smpctl image list --json` prints it.
    var hash: String
    var bootable: Bool
    var pending: Bool
    var confirmed: Bool
    var active: Bool
    var permanent: Bool

    var description: String {
        "image \(image) slot \(slot) \(version) \(hash) bootable \(bootable) pending \(pending) confirmed \(confirmed) "
            + "active \(active) permanent \(permanent)"
    }

    /// Every `ImageState(…)` in smpmgr's output; one with a field missing or unreadable is left out
    /// (the caller's count check then fails with the output).
    static func parse(_ output: String) -> [SMPMgrImageState] {
        // Without whitespace (rich's line breaks and indentation), quotes and the hash's wrapper,
        // each state reads slot=1,version=3.1.4.15,image=None,hash=EE7A…,bootable=True,…) up to
        // its closing parenthesis.
        let compact = output.filter { !$0.isWhitespace && $0 != "'" }
            .replacingOccurrences(of: "HashBytes(", with: "").replacingOccurrences(of: "),", with: ",")
        return compact.components(separatedBy: "ImageState(").dropFirst().compactMap { block in
            let body = block.prefix { $0 != ")" }
            var fields: [String: String] = [:]
            for pair in body.split(separator: ",") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
            }
            func flag(_ name: String) -> Bool? { fields[name].flatMap { ["True": true, "False": false][$0] } }
            guard let slot = fields["slot"].flatMap({ Int($0) }), let version = fields["version"], let hash = fields["hash"],
                  let bootable = flag("bootable"), let pending = flag("pending"), let confirmed = flag("confirmed"),
                  let active = flag("active"), let permanent = flag("permanent")
            else { return nil }
            return SMPMgrImageState(
                image: fields["image"].flatMap { Int($0) } ?? 0, slot: slot, version: version, hash: hash.lowercased(),
                bootable: bootable, pending: pending, confirmed: confirmed, active: active, permanent: permanent)
        }
    }
}

extension SMPMgrImageState {
    /// The same slot as `smpctl image list --json` describes it (one element of `images`).
    init?(smpctl entry: JSONNode) {
        guard let image = entry["image"]?.int, let slot = entry["slot"]?.int, let version = entry["version"]?.string,
              let hash = entry["imageHash"]?.string, let bootable = entry["bootable"]?.bool, let pending = entry["pending"]?.bool,
              let confirmed = entry["confirmed"]?.bool, let active = entry["active"]?.bool, let permanent = entry["permanent"]?.bool
        else { return nil }
        self.init(
            image: image, slot: slot, version: version, hash: hash, bootable: bootable, pending: pending, confirmed: confirmed,
            active: active, permanent: permanent)
    }
}

extension XCTestCase {
    /// Starts a virtual device on 127.0.0.1:``SMPMgr/port`` (the one port smpmgr reaches),
    /// retrying for a while if another test run holds the port; skips locally, fails in CI, if it
    /// never frees. The device stops when the test ends.
    func startDeviceForSMPMgr(_ configuration: VirtualDeviceConfiguration) async throws -> ServedDevice {
        let device = VirtualDevice(configuration: configuration)
        let server = try await FixedPortServer.serve(device, port: SMPMgr.port)
        addTeardownBlock { await server.stop() }
        return ServedDevice(device: device, server: server, endpoint: "udp:127.0.0.1:\(SMPMgr.port)")
    }
}
