import Crypto
import Foundation

/// The folder of prebuilt Zephyr firmware fixtures (`../shared/zephyr-fixtures`, or where
/// `SMPCTL_ZEPHYR_FIXTURES` points), its manifest, and its files checked against `SHA256SUMS`.
///
/// The folder is found, read and checked once per process. Locally a missing folder skips the
/// test with one line; with `CI=true` it fails, and a checksum mismatch always fails.
public struct ZephyrFixtureFolder: Sendable {
    /// The folder.
    public let url: URL
    /// Every fixture the manifest lists.
    public let fixtures: [ZephyrFixture]

    /// The environment variable that overrides the folder.
    public static let environmentVariable = "SMPCTL_ZEPHYR_FIXTURES"

    /// Where the fixtures are looked for: `SMPCTL_ZEPHYR_FIXTURES`, else `../shared/zephyr-fixtures`
    /// from the package root.
    public static var location: URL {
        if let configured = ProcessInfo.processInfo.environment[environmentVariable], !configured.isEmpty {
            return URL(fileURLWithPath: configured, isDirectory: true)
        }
        return ExternalTool.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/zephyr-fixtures", isDirectory: true)
    }

    /// The checked folder; skips (locally, folder missing) or fails the calling test.
    public static func require() throws -> ZephyrFixtureFolder {
        switch loaded {
        case .success(let folder): return folder
        case .failure(.missing(let reason)): try ExternalTool.unavailable(reason)
        case .failure(let error): throw error
        }
    }

    /// The fixture of a board and configuration (`native_sim`, `serial_fs`).
    public func fixture(target: String, config: String) throws -> ZephyrFixture {
        guard let fixture = fixtures.first(where: { $0.target == target && $0.config == config }) else {
            throw ZephyrFixtureError.notInManifest("\(target)/\(config) is not in \(url.appendingPathComponent("manifest.json").path)")
        }
        return fixture
    }

    /// The absolute path of a file in the folder.
    public func path(of file: String) -> String { url.appendingPathComponent(file).path }

    private static let loaded: Result<ZephyrFixtureFolder, ZephyrFixtureError> = Result { try load(from: location) }
        .mapError { $0 as? ZephyrFixtureError ?? .unreadable("\($0)") }

    private static func load(from url: URL) throws -> ZephyrFixtureFolder {
        let manifestURL = url.appendingPathComponent("manifest.json")
        guard FileManager.default.fileExists(atPath: manifestURL.path) else {
            throw ZephyrFixtureError.missing(
                "no Zephyr firmware fixtures at \(url.path) (set \(environmentVariable) to the folder holding manifest.json); "
                    + "the real-firmware tests do not run")
        }
        let fixtures: [ZephyrFixture]
        do {
            fixtures = try ZephyrFixtureManifest.decode(Data(contentsOf: manifestURL))
        } catch {
            throw ZephyrFixtureError.unreadable("\(manifestURL.path) is not a fixture manifest: \(error)")
        }
        try verifyChecksums(in: url, covering: fixtures.map(\.artifact))
        return ZephyrFixtureFolder(url: url, fixtures: fixtures)
    }

    /// Checks every file `SHA256SUMS` lists, and that it lists every manifest artifact.
    private static func verifyChecksums(in url: URL, covering artifacts: [String]) throws {
        let sumsURL = url.appendingPathComponent("SHA256SUMS")
        guard let text = try? String(contentsOf: sumsURL, encoding: .utf8) else {
            throw ZephyrFixtureError.checksum("cannot read \(sumsURL.path)")
        }
        var listed: Set<String> = []
        for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2 else { throw ZephyrFixtureError.checksum("\(sumsURL.path): unreadable line \"\(line)\"") }
            let expected = parts[0].lowercased()
            var name = parts[1].trimmingCharacters(in: .whitespaces)
            if name.hasPrefix("*") { name.removeFirst() }
            listed.insert(name)
            guard let data = FileManager.default.contents(atPath: url.appendingPathComponent(name).path) else {
                throw ZephyrFixtureError.checksum("\(name), listed in \(sumsURL.path), is missing or unreadable")
            }
            let actual = SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
            guard actual == expected else {
                throw ZephyrFixtureError.checksum(
                    "\(url.appendingPathComponent(name).path) has SHA-256 \(actual), SHA256SUMS says \(expected): the fixture is damaged or changed; copy the fixtures again")
            }
        }
        if let unlisted = artifacts.first(where: { !listed.contains($0) }) {
            throw ZephyrFixtureError.checksum("\(unlisted) is in manifest.json but not in \(sumsURL.path)")
        }
    }
}

/// Why the fixtures cannot be used.
public enum ZephyrFixtureError: Error, CustomStringConvertible, Equatable {
    /// The folder is not there (a skip locally, a failure in CI).
    case missing(String)
    /// The manifest cannot be read.
    case unreadable(String)
    /// A file does not match SHA256SUMS.
    case checksum(String)
    /// A fixture the test asks for is not in the manifest.
    case notInManifest(String)

    public var description: String {
        switch self {
        case .missing(let reason), .unreadable(let reason), .notInManifest(let reason): reason
        case .checksum(let reason): "fixture checksum: \(reason)"
        }
    }
}
