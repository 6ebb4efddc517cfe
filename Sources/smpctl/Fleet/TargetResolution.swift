#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import SMPFleet
import SMPKit

/// The devices a command runs on, from `-c SELECTOR` and/or `--targets FILE` (docs/many-devices.md).
struct ResolvedTargets: Sendable {
    /// Every target, in the order named: the selector's, then each file's in line order.
    var targets: [DeviceTarget]
    /// The targets that stand for a selector that matched no device (an unplugged shelf), with
    /// why: a run records them as failed without reaching for them, and serves the others.
    var unmatched: [DeviceTarget: CLIError]
}

/// Resolves the devices a command runs on (``ResolvedTargets``).
///
/// - A selector (`serial:vid=2fe3`, `udp:127.0.0.1:14000-14009`, `ble:name=Zephyr-*`) is resolved
///   now: serial ports are listed, UDP ranges expanded, BLE devices scanned; a plain connection
///   string is one target.
/// - A targets file (`-` reads standard input) has `[LABEL] TARGET` lines; TARGET is a connection
///   string, a selector or a profile name. A profile becomes its connection string carrying the
///   profile's (or the config file's defaults') `timeout` and `retries` as connection options,
///   resolved as `-p NAME` would be (``LinkResolution``), and is named by its label or else by the
///   profile's name. Several files are read in the order given (`--targets A --targets B`); a
///   label names one device across all of them.
/// - The selector's targets come first, then the files', in line order. Two of them naming one
///   device is an error naming both.
/// - A selector or line that matches nothing, among others that match, becomes an unmatched
///   target (``ResolvedTargets/unmatched``); when nothing matches at all, that is the error.
///
/// - Parameters:
///   - selector: `-c` as given, or nil.
///   - targetsFiles: every `--targets` as given.
///   - config: the config file, for profiles; read only when a line names one.
///   - environment: for profiles (`SMPCTL_TIMEOUT`…).
/// - Throws: ``CLIError``: 64 no selector and no file, a bad selector or `-` twice, 65 an
///   unreadable file or a bad line (the message names FILE:LINE), a label used in two files or a
///   device named twice, 69 when nothing matches (the hint lists what was seen) or discovery
///   cannot run.
func resolveTargets(
    selector: TargetSelector?, targetsFiles: [String], config: ConfigLoader, environment: [String: String] = ProcessInfo.processInfo.environment
) async throws(CLIError) -> ResolvedTargets {
    guard selector != nil || !targetsFiles.isEmpty else {
        throw CLIError(
            .usage, "no devices named",
            hint: "name them with -c SELECTOR (e.g. -c 'serial:*' or -c udp:127.0.0.1:14000-14009) or --targets FILE")
    }
    if targetsFiles.filter({ $0 == "-" }).count > 1 {
        throw CLIError(.usage, "--targets - is given twice", hint: "standard input can be read once: put its lines in a file")
    }
    var resolved = ResolvedTargets(targets: [], unmatched: [:])
    var origins: [String] = []
    var firstMiss: CLIError?
    /// Adds what `resolve` finds; a selector that matches nothing is kept as an unmatched target.
    func add(origin: String, placeholder: DeviceTarget?, _ resolve: () async throws -> [DeviceTarget]) async throws {
        do {
            let found = try await resolve()
            resolved.targets += found
            origins += found.map { _ in origin }
        } catch let error as TargetSelectionError where error.kind == .notFound {
            guard let placeholder else { throw error }
            let failure = CLIError(targetSelection: error)
            firstMiss = firstMiss ?? failure
            resolved.targets.append(placeholder)
            resolved.unmatched[placeholder] = failure
            origins.append(origin)
        }
    }
    do {
        if let selector {
            try await add(origin: "-c \(selector)", placeholder: selector.unmatchedTarget(label: nil)) { try await selector.resolve() }
        }
        var labels: [String: String] = [:]
        for file in targetsFiles {
            let source = file == "-" ? "standard input" : file
            for entry in try TargetList.parse(try TargetFileText.read(file), source: source) {
                if let label = entry.label {
                    if let first = labels[label] {
                        throw CLIError(.dataError, "\(entry.place): the label \"\(label)\" is also used at \(first)", hint: "give each device its own label")
                    }
                    labels[label] = entry.place
                }
                if entry.isProfileName {
                    try await add(origin: entry.place, placeholder: nil) { [try await profileTarget(entry, config: config, environment: environment)] }
                } else {
                    try await add(origin: entry.place, placeholder: try entry.selector().unmatchedTarget(label: entry.label)) { try await entry.resolve() }
                }
            }
        }
        if resolved.unmatched.count == resolved.targets.count, let firstMiss { throw firstMiss }
        try TargetList.checkDistinct(resolved.targets, origins: targetsFiles.isEmpty ? nil : origins)
    } catch let error as TargetSelectionError {
        throw CLIError(targetSelection: error)
    } catch let error as CLIError {
        throw error
    } catch {
        throw CLIError(error)
    }
    return resolved
}

/// The target a targets-file line names by a profile: the profile's connection with its link
/// settings, timeout and retries included, as connection options.
private func profileTarget(_ entry: TargetList.Entry, config: ConfigLoader, environment: [String: String]) async throws -> DeviceTarget {
    let resolution: LinkResolution
    do {
        let commandLine = LinkResolution.Layer(source: .commandLine, settings: ConfigSettings())
        let layers = try LinkResolution.layers(commandLine: commandLine, profileOption: entry.target, environment: environment, config: config)
        resolution = try LinkResolution(layers: layers, profile: entry.target)
    } catch {
        throw CLIError(.dataError, "\(entry.place): \(error.message)", hint: error.hint)
    }
    guard resolution.connectionSource == .profile(entry.target) else {
        throw CLIError(
            .dataError, "\(entry.place): the profile \"\(entry.target)\" has no connection",
            hint: "give it one: smpctl profile add \(ShellQuoting.quoted(entry.target)) -c CONNECTION")
    }
    let selector = try TargetSelector(parsing: resolution.connection.description)
    return try await selector.resolve(label: entry.label ?? entry.target)[0]
}

/// The text of a targets file, or of standard input for `-`.
enum TargetFileText {
    /// The most a targets file may hold: far more than 4096 lines of targets.
    static let limit = 1 << 20

    /// Reads `path` (`-`: standard input to its end) as UTF-8.
    static func read(_ path: String) throws(CLIError) -> String {
        let bytes = path == "-" ? try standardInput() : try FSLocalFile.contents(path, limit: limit)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CLIError(.dataError, "\(path == "-" ? "standard input" : path) is not UTF-8 text", hint: "a targets file has lines [LABEL] TARGET")
        }
        return text
    }

    private static func standardInput() throws(CLIError) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                throw CLIError(.dataError, "standard input could not be read: \(String(cString: strerror(errno)))")
            }
            bytes += buffer[..<count]
            guard bytes.count <= limit else {
                throw CLIError(.dataError, "standard input holds more than \(limit) bytes, too much for a targets file")
            }
        }
    }
}
