#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import SMPFleet
import SMPKit

/// The devices a command runs on, from `-c SELECTOR` and/or `--targets FILE` (docs/many-devices.md).
///
/// - A selector (`serial:vid=2fe3`, `udp:127.0.0.1:14000-14009`, `ble:name=Zephyr-*`) is resolved
///   now: serial ports are listed, UDP ranges expanded, BLE devices scanned; a plain connection
///   string is one target.
/// - A targets file (`-` reads standard input) has `[LABEL] TARGET` lines; TARGET is a connection
///   string, a selector or a profile name. A profile becomes its connection string carrying the
///   profile's (or the config file's defaults') `timeout` and `retries` as connection options,
///   resolved as `-p NAME` would be (``LinkResolution``), and is named by its label or else by the
///   profile's name.
/// - The selector's targets come first, then the file's, in line order. Two of them naming one
///   device is an error naming both.
///
/// - Parameters:
///   - selector: `-c` as given, or nil.
///   - targetsFile: `--targets` as given, or nil.
///   - config: the config file, for profiles; read only when a line names one.
///   - environment: for profiles (`SMPCTL_TIMEOUT`…).
/// - Returns: at least one target.
/// - Throws: ``CLIError``: 64 no selector and no file or a bad selector, 65 an unreadable file or a
///   bad line (the message names FILE:LINE) or a device named twice, 69 a selector that matches
///   nothing (the hint lists what was seen) or discovery that cannot run.
func resolveTargets(
    selector: TargetSelector?, targetsFile: String?, config: ConfigLoader, environment: [String: String] = ProcessInfo.processInfo.environment
) async throws(CLIError) -> [DeviceTarget] {
    guard selector != nil || targetsFile != nil else {
        throw CLIError(
            .usage, "no devices named",
            hint: "name them with -c SELECTOR (e.g. -c 'serial:*' or -c udp:127.0.0.1:14000-14009) or --targets FILE")
    }
    var targets: [DeviceTarget] = []
    var origins: [String] = []
    do {
        if let selector {
            let resolved = try await selector.resolve()
            targets += resolved
            origins += resolved.map { _ in "-c \(selector)" }
        }
        if let targetsFile {
            let source = targetsFile == "-" ? "standard input" : targetsFile
            let entries = try TargetList.parse(try TargetFileText.read(targetsFile), source: source)
            for entry in entries {
                let resolved = entry.isProfileName
                    ? [try await profileTarget(entry, config: config, environment: environment)]
                    : try await entry.resolve()
                targets += resolved
                origins += resolved.map { _ in entry.place }
            }
        }
        try TargetList.checkDistinct(targets, origins: targetsFile == nil ? nil : origins)
    } catch let error as TargetSelectionError {
        throw CLIError(targetSelection: error)
    } catch let error as CLIError {
        throw error
    } catch {
        throw CLIError(error)
    }
    return targets
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
