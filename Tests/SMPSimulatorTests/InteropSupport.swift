import Foundation
import SMPSimulator
import SMPTestSupport
import XCTest

/// Running the Python interop tools against a virtual device.
enum Interop {
    /// `Tests/Scripts/interop`.
    static let scripts = ExternalTool.packageRoot.appendingPathComponent("Tests/Scripts/interop")

    /// Runs a program on a thread of its own, so that the wait does not hold one of the few
    /// threads Swift concurrency (and so the virtual device) runs on.
    static func run(_ executable: String, _ arguments: [String], timeout: TimeInterval = 60) async throws -> ProcessRunner.Result {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try ProcessRunner.run(executable, arguments, timeout: timeout) })
            }.start()
        }
    }

    /// Serves `device` on a loopback UDP port, runs the Python `script` (in ``scripts``) against it
    /// with `--host` and `--port`, and returns the JSON object it prints: one result per request.
    static func report(running script: String, against device: VirtualDevice) async throws -> InteropReport {
        let server = UDPSimulatorServer(device: device, host: "127.0.0.1", port: 0)
        let port = try await server.start()
        let path = scripts.appendingPathComponent(script).path
        let result = try await run(ExternalTool.python, [path, "--host", "127.0.0.1", "--port", "\(port)"])
        await server.stop()
        guard result.status == 0 else {
            throw InteropFailure("\(script) exited with \(result.status)\nstdout: \(result.stdout)\nstderr: \(result.stderr)")
        }
        guard let json = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] else {
            throw InteropFailure("\(script) printed no JSON object: \(result.stdout)\nstderr: \(result.stderr)")
        }
        return InteropReport(json)
    }

    /// `smpmgr` next to the Python interpreter in use, else the one on `PATH`.
    static var smpmgr: String {
        let python = ExternalTool.python
        guard python.contains("/") else { return "smpmgr" }
        return URL(fileURLWithPath: python).deletingLastPathComponent().appendingPathComponent("smpmgr").path
    }
}

/// An interop script that failed or printed no report.
struct InteropFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Reads the JSON the interop script prints.
struct InteropReport {
    let results: [String: Any]

    init(_ results: [String: Any]) { self.results = results }

    func entry(_ name: String) -> [String: Any]? { results[name] as? [String: Any] }

    func data(_ name: String) -> [String: Any]? { entry(name)?["data"] as? [String: Any] }

    /// Checks a result's kind, header version and fields.
    func expect(
        _ name: String, kind: String, version: Int = 1, data expected: [String: Any],
        file: StaticString = #filePath, line: UInt = #line
    ) {
        guard let entry = entry(name) else { return XCTFail("\(name): no result", file: file, line: line) }
        XCTAssertEqual(entry["kind"] as? String, kind, "\(name): \(entry)", file: file, line: line)
        XCTAssertEqual(entry["version"] as? Int, version, "\(name): \(entry)", file: file, line: line)
        let data = entry["data"] as? NSDictionary
        XCTAssertEqual(data, expected as NSDictionary, "\(name)", file: file, line: line)
    }
}
