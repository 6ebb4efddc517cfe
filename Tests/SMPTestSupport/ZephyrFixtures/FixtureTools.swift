import Foundation

/// The programs fixtures need: found in PATH, else skipped locally or failed in CI
/// (through ``ExternalTool/unavailable(_:)``).
public enum FixtureTools {
    /// The dynamic loader of 32-bit programs (package libc6:i386), which native_sim executables need.
    public static let i386Loader = "/lib/ld-linux.so.2"

    /// The absolute path of `name` in PATH; skips or fails the test when it is not there.
    @discardableResult
    public static func require(_ name: String, package: String) throws -> String {
        if let path = find(name) { return path }
        try ExternalTool.unavailable("\(name) is not installed (apt-get install \(package), or run .ci/setup --tests)")
    }

    /// Skips or fails unless 32-bit programs can run.
    public static func requireI386Loader() throws {
        guard !FileManager.default.isExecutableFile(atPath: i386Loader) else { return }
        try ExternalTool.unavailable(
            "\(i386Loader) is missing, so the 32-bit native_sim fixtures cannot run (dpkg --add-architecture i386; apt-get install libc6:i386)")
    }

    /// `name` in PATH, if there.
    public static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
