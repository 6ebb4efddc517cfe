import FoundationEssentials
import SMPKit

/// Where the interactive shell keeps its history between sessions:
/// `$XDG_STATE_HOME/smpctl/shell_history`, or `~/.local/state/smpctl/shell_history`.
struct ShellHistoryFile {
    /// The file's path.
    let path: String

    /// The most lines kept.
    static let limit = 1000

    /// The file the environment selects; nil when neither `XDG_STATE_HOME` nor `HOME` is set.
    static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> ShellHistoryFile? {
        XDGDirectory.state.path(of: "shell_history", environment: environment).map(ShellHistoryFile.init(path:))
    }

    /// The saved history (empty when the file does not exist or cannot be read).
    func load() -> LineHistory {
        guard let data = FileManager.default.contents(atPath: path) else { return LineHistory(limit: Self.limit) }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        return LineHistory(entries: lines, limit: Self.limit)
    }

    /// Writes the history (its newest ``limit`` lines), creating the directory; a failure is
    /// reported as a note on standard error, never as the session's failure.
    func save(_ history: LineHistory) {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let text = history.entries.map { $0 + "\n" }.joined()
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            Output.status("note: could not save the shell history to \(path): \(fileErrorReason(error))")
        }
    }
}
