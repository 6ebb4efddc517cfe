#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// This run's progress display and chattiness, from `--progress` and `-q` (``DisplayOptions``).
///
/// Set once when a device command's invocation is worked out (``GlobalOptions/invocation()``);
/// commands without those options keep the default:
/// a bar when standard error is a terminal that can redraw a line, plain lines otherwise.
enum ProgressDisplay {
    private struct Settings {
        var requested: ProgressMode?
        var quiet = false
    }

    private static let settings = Mutex(Settings())

    /// Records the options of this run.
    static func configure(mode: ProgressMode?, quiet: Bool) {
        settings.withLock { $0 = Settings(requested: mode, quiet: quiet) }
    }

    /// Whether `-q` was given: no progress and no informational lines.
    static var isQuiet: Bool { settings.withLock { $0.quiet } }

    /// The mode in effect: none with `-q`, else the requested one, else a bar at a terminal
    /// (not `TERM=dumb`, which cannot redraw a line) and plain lines otherwise.
    static var mode: ProgressMode {
        let current = settings.withLock { $0 }
        return resolve(requested: current.requested, quiet: current.quiet, terminal: TerminalText.allowsCursorMovement(on: STDERR_FILENO))
    }

    /// The mode for the given options and standard error.
    static func resolve(requested: ProgressMode?, quiet: Bool, terminal: Bool) -> ProgressMode {
        if quiet { return .none }
        return requested ?? (terminal ? .bar : .plain)
    }
}

extension Output {
    /// Writes an informational line to standard error (a step, a plan, a note) through this
    /// output; `-q` drops it. Warnings and errors use ``note(_:)`` and ``report(_:document:)``,
    /// which `-q` keeps.
    func info(_ text: String) {
        guard !ProgressDisplay.isQuiet else { return }
        note(text)
    }
}
