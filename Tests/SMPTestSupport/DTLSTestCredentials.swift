import Foundation

/// The DTLS credentials the tests use, made once per test process by
/// `Tests/Scripts/dtls/make-certs.sh` (openssl CLI) in a temporary folder: nothing is committed.
public struct DTLSTestCredentials: Sendable {
    /// The folder holding the files.
    public let folder: String
    /// The pre-shared key identity (`psk.id`).
    public let pskIdentity: String
    /// The pre-shared key as hex (`psk.hex`).
    public let pskHex: String

    /// The path of one file, e.g. `"ca.pem"`, `"device.key"`.
    public func path(_ name: String) -> String { (folder as NSString).appendingPathComponent(name) }

    /// The credentials, made on first use; skips (locally) or fails (CI) when the openssl CLI is missing.
    public static func make(file: StaticString = #filePath, line: UInt = #line) throws -> DTLSTestCredentials {
        switch made {
        case .success(let credentials): return credentials
        case .failure(let error as ToolMissing):
            try ExternalTool.unavailable(error.reason)
        case .failure(let error): throw error
        }
    }

    private struct ToolMissing: Error { var reason: String }

    private static let made: Result<DTLSTestCredentials, any Error> = Result {
        let folder = NSTemporaryDirectory() + "smpctl-dtls-\(getpid())-\(UUID().uuidString.prefix(8))"
        let result = try ProcessRunner.run("bash", [ExternalTool.script("dtls/make-certs.sh"), folder], timeout: 120)
        guard result.status == 0 else {
            if result.stderr.contains("openssl: command not found") || result.stderr.contains("openssl: not found") {
                throw ToolMissing(reason: "the openssl command is not installed (it makes the DTLS test certificates)")
            }
            throw MakeCertsFailed(status: result.status, stderr: result.stderr)
        }
        let read = { (name: String) in
            try String(contentsOfFile: (folder as NSString).appendingPathComponent(name), encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return DTLSTestCredentials(folder: folder, pskIdentity: try read("psk.id"), pskHex: try read("psk.hex"))
    }

    /// make-certs.sh failed.
    public struct MakeCertsFailed: Error, CustomStringConvertible {
        /// Its exit status.
        public var status: Int32
        /// What it printed on standard error.
        public var stderr: String
        public var description: String { "Tests/Scripts/dtls/make-certs.sh exited with \(status): \(stderr)" }
    }
}
