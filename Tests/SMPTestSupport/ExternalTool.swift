import Foundation
import XCTest

/// Finds the external programs tests rely on (Python with cbor2/smpclient/smpmgr, the smpctl binary).
///
/// Locally a missing tool skips the test with a note on how to install it; under CI (``inCI``)
/// nothing may skip, so a missing tool fails the test.
public enum ExternalTool {
    /// Whether the tests run in CI: the environment's `CI` means CI (``meansCI(_:)``).
    public static var inCI: Bool { meansCI(ProcessInfo.processInfo.environment["CI"]) }

    /// Whether a value of the `CI` environment variable means CI: CI systems set `true`, `1`, `yes`
    /// or their own name, so any value counts except an empty one, `false` and `0` (any case,
    /// surrounding blanks ignored).
    public static func meansCI(_ value: String?) -> Bool {
        guard let value = value?.trimmingCharacters(in: .whitespacesAndNewlines).lowercased(), !value.isEmpty else { return false }
        return value != "false" && value != "0"
    }

    /// The package root (the folder that holds Package.swift).
    public static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }()

    /// The Python interpreter: `SMPCTL_PYTHON`, else `.venv/bin/python` in the package, else `python3`.
    public static var python: String {
        if let configured = ProcessInfo.processInfo.environment["SMPCTL_PYTHON"], !configured.isEmpty { return configured }
        let venv = packageRoot.appendingPathComponent(".venv/bin/python").path
        return FileManager.default.isExecutableFile(atPath: venv) ? venv : "python3"
    }

    /// Skips (locally) or fails (in CI) unless Python can import every module named.
    public static func requirePythonModules(_ modules: [String]) throws {
        let probe = try ProcessRunner.run(python, ["-c", modules.map { "import \($0)" }.joined(separator: "; ")], timeout: 60)
        guard probe.status == 0 else {
            try unavailable("Python modules \(modules.joined(separator: ", ")) are not importable with \(python): \(probe.stderr)")
        }
    }

    /// The path of a built product of this package (e.g. `smpctl`) in the build folder of the tests.
    ///
    /// On Linux a bundle's URL is the build folder itself; on macOS it is the `.xctest` bundle
    /// inside it; both places are tried.
    public static func builtProduct(_ name: String) throws -> String {
        let bundles = [Bundle.main.bundleURL] + Bundle.allBundles.map(\.bundleURL)
        for folder in bundles.flatMap({ [$0, $0.deletingLastPathComponent()] }) {
            let url = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url.path }
        }
        try unavailable("\(name) is not built next to \(Bundle.main.bundleURL.path); run `swift build` first")
    }

    /// Skips locally; in CI throws ``RequiredToolMissing``, which XCTest records as a failure
    /// (an `XCTSkip` after `XCTFail` could be counted as a skip). Every skip for a missing tool or
    /// an environment that cannot run the test goes through here.
    public static func unavailable(_ reason: String) throws -> Never {
        if inCI { throw RequiredToolMissing(reason: reason) }
        throw XCTSkip("\(reason) (install: see README, 'Running the tests')")
    }

    /// The absolute path of a file under `Tests/Scripts`, e.g. `"cbor/cbor2_crosscheck.py"`.
    public static func script(_ relativePath: String) -> String {
        packageRoot.appendingPathComponent("Tests/Scripts").appendingPathComponent(relativePath).path
    }
}

/// A tool the tests need is missing in CI (``ExternalTool/inCI``), where nothing may be skipped.
public struct RequiredToolMissing: Error, CustomStringConvertible {
    /// What is missing and why it matters.
    public var reason: String

    public var description: String { "in CI (CI is set) nothing may skip, so this test fails: \(reason)" }
}
