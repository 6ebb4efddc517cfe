import FoundationEssentials
import SMP

/// Remembers, per serial device, the line pacing learned on it (`SMPClient.tuneLinePacing()`),
/// so that the next session starts at full speed without learning it again:
/// `$XDG_CACHE_HOME/smpctl/line-pacing.json`, or `~/.cache/smpctl/line-pacing.json`.
///
/// A device is known by its USB identity where it has one (vendor, product, serial number), else
/// by its path or `tcp://` address. An unreadable or damaged file is treated as empty; a failed
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

    /// One remembered pacing.
    struct Entry: Codable {
        var burst: Int
        var gapMilliseconds: Int
    }

    /// The pacing remembered for `device`, if any.
    public func pacing(for device: String) -> LinePacing? {
        guard let entry = load()[device], entry.burst >= 0, (0...1000).contains(entry.gapMilliseconds) else { return nil }
        return LinePacing(burst: entry.burst, gap: .milliseconds(entry.gapMilliseconds))
    }

    /// Remembers `pacing` for `device`.
    public func remember(_ pacing: LinePacing, for device: String) {
        var entries = load()
        entries[device] = Entry(burst: pacing.burst, gapMilliseconds: Int((pacing.gap.seconds * 1000).rounded()))
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        guard (try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)) != nil,
              let data = try? encoder.encode(entries)
        else { return }
        try? data.write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    private func load() -> [String: Entry] {
        guard let data = FileManager.default.contents(atPath: path), data.count <= 1 << 20 else { return [:] }
        return (try? JSONDecoder().decode([String: Entry].self, from: data)) ?? [:]
    }
}
