import Foundation

/// `Tests/Scripts/dtls/dtls_front.py` running: a DTLS 1.2 server of Mbed TLS (python-mbedtls, the
/// stack Zephyr uses) relaying plaintext SMP to a plain SMP UDP server (a virtual device or the
/// native_sim `udp` fixture). Needs the `mbedtls` module in the test Python (skips locally, fails
/// in CI without it). ``stop()`` ends it; call it from a teardown block.
public struct DTLSFront: Sendable {
    /// The process, whose log holds the front's events (sessions, alerts, dropped datagrams).
    public let process: FixtureProcess
    /// The loopback port it serves DTLS on.
    public let port: Int

    /// Starts the front with `arguments` (`--upstream HOST:PORT`, then `--psk-id ID --psk-file F`
    /// or `--cert F --key F`, `--drop-first N` …) on a free port and waits for its `READY PORT`.
    public static func start(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) async throws -> DTLSFront {
        try ExternalTool.requirePythonModules(["mbedtls"])
        let folder = try FixtureScratch.makeFolder("dtls-front")
        let process = try FixtureProcess(
            name: "dtls_front.py", executable: ExternalTool.python,
            arguments: ["-u", ExternalTool.script("dtls/dtls_front.py"), "--port", "0"] + arguments,
            workingDirectory: folder, logURL: folder.appendingPathComponent("front.log"))
        do {
            let port = try await process.waitForLine(timeout: 20, what: "READY PORT") { line in
                line.hasPrefix("READY ") ? Int(line.dropFirst(6)) : nil
            }
            return DTLSFront(process: process, port: port)
        } catch {
            process.stop()
            throw error
        }
    }

    /// Ends the front.
    public func stop() { process.stop() }
}
