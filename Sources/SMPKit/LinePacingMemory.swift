import FoundationEssentials
import JSON
import SMP

/// Remembers, per serial device, the line pacing learned on it (`SMPClient.tuneLinePacing()`),
/// so that the next session starts at full speed without learning it again:
/// `$XDG_CACHE_HOME/smpctl/line-pacing.json`, or `~/.cache/smpctl/line-pacing.json`.
///
/// A device is known by its USB identity where it has one (vendor, product, serial number), a serial
/// server by its `tcp://` or `rfc2217://` address (a lab's port stays wired to its board); a
/// pseudo-terminal or a tty without USB identity is not remembered (another device may come to
/// use its path). An unreadable or damaged file is treated as empty; a failed
/// save is ignored (the pacing is then learned again next time).
public struct LinePacingMemory: Sendable {
    /// The file's path.
    public let path: String

    /// Memory kept in `path`.
    public init(path: String) {
        self.path = path
    }

    /// The file the environment selects; nil when neither `XDG_CACHE_HOME` nor `HOME` is set.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> LinePacingMemory? {
        XDGDirectory.cache.path(of: "line-pacing.json", environment: environment).map(LinePacingMemory.init(path:))
    }

    /// The pacing remembered for `device`, if any.
    public func pacing(for device: String) -> LinePacing? {
        let entry = JSONValue.object(load())[device]
        guard case .int(let burst)? = entry?["burst"], case .int(let gap)? = entry?["gapMilliseconds"],
              let burst = Int(exactly: burst), burst >= 0, (0...1000).contains(gap)
        else { return nil }
        return LinePacing(burst: burst, gap: .milliseconds(gap))
    }

    /// Remembers `pacing` for `device`.
    public func remember(_ pacing: LinePacing, for device: String) {
        let entry = JSONValue.object([("burst", .int(Int64(pacing.burst))), ("gapMilliseconds", .int(Int64((pacing.gap.seconds * 1000).rounded())))])
        var entries = load().filter { $0.0 != device }
        entries.append((device, entry))
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard (try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)) != nil else { return }
        try? Data((JSONValue.object(entries).serialized() + "\n").utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// The file's devices and their entries, in the file's order.
    private func load() -> [(String, JSONValue)] {
        guard let data = FileManager.default.contents(atPath: path), data.count <= 1 << 20,
              case .object(let entries)? = try? JSONValue.parse(Array(data))
        else { return [] }
        return entries
    }
}
