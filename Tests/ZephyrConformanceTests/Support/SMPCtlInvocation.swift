import Dispatch
import Foundation
import SMPTestSupport

/// One finished run of the real `smpctl` binary (the debug build next to the test bundle).
struct SMPCtlInvocation: CustomStringConvertible, Sendable {
    var arguments: [String]
    var status: Int32
    var stdout: String
    var stderr: String
    var seconds: Double
    var timedOut: Bool

    var description: String {
        "smpctl \(arguments.joined(separator: " ").prefix(300)) → exit \(status)\(timedOut ? " (killed: too slow)" : ""), "
            + String(format: "%.2f s", seconds) + "\n--- stdout:\n\(stdout.suffix(3000))--- stderr:\n\(stderr.suffix(3000))---"
    }

    /// The last line of standard output as a JSON object (progress events come before it), or nil.
    var lastJSONObject: [String: Any]? {
        guard let line = stdout.split(separator: "\n").last,
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8))
        else { return nil }
        return object as? [String: Any]
    }

    /// Runs `smpctl` off the Swift concurrency pool (a blocking wait), killed after `timeout`.
    /// `SMPCTL_CONNECTION` is cleared so that the developer's shell cannot change the outcome, and
    /// `XDG_CACHE_HOME` is `cache`, so that what smpctl remembers about devices stays in the test.
    static func run(_ arguments: [String], cache: URL, timeout: TimeInterval) async throws -> SMPCtlInvocation {
        let executable = try ExternalTool.builtProduct("smpctl")
        let outcome: Result<(ProcessRunner.Result, Double), any Error> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let start = DispatchTime.now()
                let result = Result {
                    try ProcessRunner.run(
                        executable, arguments, environment: ["SMPCTL_CONNECTION": "", "XDG_CACHE_HOME": cache.path], timeout: timeout)
                }
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
                continuation.resume(returning: result.map { ($0, seconds) })
            }
        }
        let (result, seconds) = try outcome.get()
        return SMPCtlInvocation(
            arguments: arguments, status: result.status, stdout: result.stdout, stderr: result.stderr, seconds: seconds,
            timedOut: result.timedOut)
    }
}
