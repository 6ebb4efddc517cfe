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

    /// `smpmgr` next to the Python interpreter in use, else the one on `PATH`.
    static var smpmgr: String {
        let python = ExternalTool.python
        guard python.contains("/") else { return "smpmgr" }
        return URL(fileURLWithPath: python).deletingLastPathComponent().appendingPathComponent("smpmgr").path
    }

    /// Starts `device` on 127.0.0.1:`port`, retrying for a while if the port is taken (another
    /// test run may hold it); skips locally, fails in CI, if it never frees.
    static func serve(_ device: VirtualDevice, port: Int) async throws -> UDPSimulatorServer {
        var lastError: SimulatorServerError?
        for _ in 0..<40 {
            let server = UDPSimulatorServer(device: device, host: "127.0.0.1", port: port)
            do {
                try await server.start()
                return server
            } catch {
                lastError = error
                guard error.kind == .addressInUse else { break }
                try await Task.sleep(for: .milliseconds(250))
            }
        }
        try ExternalTool.unavailable("cannot serve the virtual device on 127.0.0.1:\(port): \(lastError.map { "\($0)" } ?? "unknown")")
        throw XCTSkip("unreachable")
    }
}
