import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SMPTestSupport
import XCTest

/// A real terminal of a given size: a detached tmux session on a private server (its own socket,
/// no configuration file) running one shell command; the test reads its screen with
/// `capture-pane`. The server is killed when the test ends.
final class TmuxWindow: @unchecked Sendable {
    /// The terminal's columns.
    let width: Int
    private let socket: String

    /// Starts `command` (a shell command line) in a terminal of `width` × `height` cells.
    init(width: Int, height: Int, command: String) throws {
        try Self.requireTmux()
        self.width = width
        socket = "smpctl-test-\(UUID().uuidString.prefix(8))"
        let started = try Self.tmux(socket, ["new-session", "-d", "-s", "main", "-x", String(width), "-y", String(height), command])
        guard started.status == 0 else { throw TerminalFailure("tmux new-session failed: \(started.output)") }
    }

    /// Skips locally, fails in CI, without tmux (a function of its own: a call that never returns
    /// in the initializer leaves the compiler's clean-up of a partly made object unreachable).
    private static func requireTmux() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") else {
            try ExternalTool.unavailable("tmux is not installed (.ci/setup --tests installs it)")
        }
    }

    /// The screen and its scroll-back, wrapped lines joined (so that a line the terminal wrapped
    /// reads as one line longer than the width), trailing blanks removed.
    func screen() throws -> [String] {
        let capture = try Self.tmux(socket, ["capture-pane", "-p", "-J", "-S", "-", "-t", "main"])
        guard capture.status == 0 else { throw TerminalFailure("tmux capture-pane failed: \(capture.output)") }
        var lines = capture.output.components(separatedBy: "\n").map { String($0.reversed().drop { $0 == " " }.reversed()) }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// The terminal's width as tmux reports it.
    func reportedWidth() throws -> Int? {
        Int(try Self.tmux(socket, ["display-message", "-p", "-t", "main", "#{window_width}"]).output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Ends the tmux server (and what runs in it).
    func stop() {
        _ = try? Self.tmux(socket, ["kill-server"])
    }

    /// Runs a tmux client command and waits for it. Spawned directly with every descriptor above
    /// 2 closed, its output into a file: the tmux server that the first client forks lives on,
    /// and would otherwise keep the descriptors Foundation's `Process` watches for the client's
    /// end (and the test's pipes) open until it exits.
    private static func tmux(_ socket: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("smpctl-tmux-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, file.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in open.compactMap({ Int32($0) }) where descriptor > 2 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        let words = ["/usr/bin/tmux", "-L", socket, "-f", "/dev/null"] + arguments
        let argv = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/usr/bin/tmux", &actions, nil, argv, environ)
        guard spawned == 0 else { throw TerminalFailure("cannot start tmux: error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let output = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        return ((status >> 8) & 0xff, output)
    }
}
