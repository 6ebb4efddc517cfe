#if canImport(Glibc)
import Glibc
#endif
import SMPFleet

/// The CLI's side of target resolution: a targets file's lines (profiles through the config file)
/// and selectors, turned into distinct targets, with helper T's errors as ``CLIError``s.
///
/// A minimal adapter between ``GlobalOptions/fleetRun()`` and SMPFleet's ``TargetList`` and
/// ``TargetSelector``.
enum TargetResolution {
    /// The targets of a targets file (`-` = standard input).
    static func targets(inFile file: String, link: LinkOptions) async throws(CLIError) -> [DeviceTarget] {
        let source = file == "-" ? "standard input" : file
        let text = String(decoding: file == "-" ? standardInput() : try FSLocalFile.contents(file, limit: 1 << 20), as: UTF8.self)
        var targets: [DeviceTarget] = []
        var origins: [String] = []
        do {
            for entry in try TargetList.parse(text, source: source) {
                let found: [DeviceTarget]
                if entry.isProfileName {
                    var options = link
                    options.connection = nil
                    options.profile = entry.target
                    let connection = try options.resolution().connection.description
                    let selector = try TargetSelector(parsing: connection)
                    found = try await selector.resolve(label: entry.label ?? entry.target)
                } else {
                    found = try await entry.resolve()
                }
                targets += found
                origins += found.map { _ in entry.place }
            }
            try TargetList.checkDistinct(targets, origins: origins)
        } catch let error as TargetSelectionError {
            throw CLIError(error)
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError(.internalError, "\(error)")
        }
        return targets
    }

    /// Everything on standard input, up to its end.
    private static func standardInput() -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(STDIN_FILENO, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return bytes }
            bytes += buffer[..<count]
        }
    }

    /// The targets a selector matches now.
    static func targets(matching selector: TargetSelector) async throws(CLIError) -> [DeviceTarget] {
        do {
            return try await selector.resolve()
        } catch {
            throw CLIError(error)
        }
    }
}

extension CLIError {
    /// A target selection error with its exit status: usage 64, data 65, nothing found or a
    /// transport failure 69.
    init(_ error: TargetSelectionError) {
        let status: ExitStatus = switch error.kind {
        case .usage: .usage
        case .data: .dataError
        case .notFound, .transport: .transport
        }
        self.init(status, error.message, hint: error.hint)
    }
}
