#if canImport(Glibc)
import Glibc
#endif
import DescriptorIO
import SMP
import Synchronization

/// The helper child process: its pid, and its standard input, output and error as channels.
struct HelperProcess {
    let pid: pid_t
    let input: DescriptorChannel
    let output: DescriptorChannel
    let errors: DescriptorChannel

    /// Starts `python` with `arguments` and `environment`, its three standard streams piped to us.
    init(python: String, arguments: [String], environment: [String: String]) throws {
        var pipes: [[Int32]] = []
        for _ in 0..<3 {
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else {
                let problem = String(cString: strerror(errno))
                for opened in pipes.joined() { close(opened) }
                throw SMPTransportError(.io, "no pipe for labgrid's client: \(problem)")
            }
            // Ours only: the child gets its ends as 0, 1 and 2, and no other process inherits them.
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            pipes.append(ends)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipes[0][0], 0)
        posix_spawn_file_actions_adddup2(&actions, pipes[1][1], 1)
        posix_spawn_file_actions_adddup2(&actions, pipes[2][1], 2)
        let argv = ([python] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var child: pid_t = 0
        let status = posix_spawnp(&child, python, &actions, nil, argv, envp)
        close(pipes[0][0])
        close(pipes[1][1])
        close(pipes[2][1])
        guard status == 0 else {
            close(pipes[0][1])
            close(pipes[1][0])
            close(pipes[2][0])
            throw SMPTransportError(.notFound, "labgrid's Python \(python) cannot be started: \(String(cString: strerror(status)))", hint: LabgridPython.installHint)
        }
        pid = child
        input = try DescriptorChannel(owning: pipes[0][1], readMode: .never)
        output = try DescriptorChannel(owning: pipes[1][0])
        errors = try DescriptorChannel(owning: pipes[2][0])
    }
}

/// What the helper writes to its standard error (Python's tracebacks, labgrid's log): the last
/// part is kept, for the message when the helper ends unexpectedly.
final class HelperErrorOutput: Sendable {
    private let kept = Mutex<[UInt8]>([])

    init(_ channel: DescriptorChannel) {
        Task { [self] in
            do {
                for try await chunk in channel.reads {
                    self.kept.withLock { bytes in
                        bytes += chunk.bytes
                        if bytes.count > 2000 { bytes.removeFirst(bytes.count - 2000) }
                    }
                }
            } catch {
                // The helper ended: what it wrote is kept.
            }
            channel.close()
        }
    }

    /// The last 2000 bytes written, as text.
    var tail: String { String(decoding: kept.withLock { $0 }, as: UTF8.self) }
}

/// The Python that has labgrid installed.
enum LabgridPython {
    static let installHint = "pip install labgrid (or set SMPCTL_LABGRID_PYTHON to its Python)"

    /// `SMPCTL_LABGRID_PYTHON`, else the interpreter in the `#!` line of `labgrid-client` on `PATH`.
    static func find(environment: [String: String]) throws -> String {
        if let python = environment["SMPCTL_LABGRID_PYTHON"], !python.isEmpty { return python }
        for folder in (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
            let client = "\(folder)/labgrid-client"
            guard let python = interpreter(of: client) else { continue }
            return python
        }
        throw SMPTransportError(
            .notFound, "labgrid is not installed: no labgrid-client on PATH and SMPCTL_LABGRID_PYTHON is not set", hint: installHint)
    }

    /// The interpreter a script's `#!` line names (an absolute path), when the file starts with one.
    private static func interpreter(of path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 2, buffer[0] == UInt8(ascii: "#"), buffer[1] == UInt8(ascii: "!") else { return nil }
        let line = buffer[2..<count].prefix { $0 != UInt8(ascii: "\n") }
        let words = String(decoding: line, as: UTF8.self).split(separator: " ")
        guard let first = words.first, first.hasPrefix("/") else { return nil }
        // `#!/usr/bin/env python3`: the interpreter is the word after env.
        if first.hasSuffix("/env"), words.count > 1 { return words.dropFirst().first { !$0.hasPrefix("-") }.map(String.init) }
        return String(first)
    }
}
