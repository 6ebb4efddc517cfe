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
}
