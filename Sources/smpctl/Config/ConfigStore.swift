import FoundationEssentials
import Glibc
import SMPKit
import Synchronization

/// Where smpctl's config file is, and how it is read and changed (docs/configuration.md).
///
/// `$SMPCTL_CONFIG` names the file; without it, `$XDG_CONFIG_HOME/smpctl/config.yaml`, else
/// `~/.config/smpctl/config.yaml`. A file that does not exist, and a device such as `/dev/null`,
/// read as an empty configuration; only a regular file (or a link to one) is written, and only
/// through ``update(_:)``.
struct ConfigStore: Sendable {
    /// The file's path.
    let path: String

    /// The file the environment selects; nil when none of `SMPCTL_CONFIG`, `XDG_CONFIG_HOME`
    /// and `HOME` is set.
    static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> ConfigStore? {
        if let path = environment["SMPCTL_CONFIG"], !path.isEmpty { return ConfigStore(path: path) }
        return XDGDirectory.config.path(of: "config.yaml", environment: environment).map(ConfigStore.init(path:))
    }

    /// The largest file read: 4 MiB. A profile takes about 80 bytes, so that is some 50,000
    /// profiles, far more than anyone keeps; a larger file is most likely the wrong file, and
    /// reading it would slow every device command down (each reads the file). It is refused
    /// before it is read.
    static let sizeLimit = 4 * 1024 * 1024

    /// What to do about a file that cannot be used.
    private var fixHint: String {
        "fix it (docs/configuration.md describes the file), or run without it: SMPCTL_CONFIG=/dev/null smpctl …"
    }

    /// Whether the file exists.
    var exists: Bool { FileManager.default.fileExists(atPath: path) }

    /// The file's type (`S_IFREG`, `S_IFCHR`, …) and size in bytes, after links; nil when it
    /// does not exist.
    private var fileStatus: (type: mode_t, size: Int)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return (info.st_mode & S_IFMT, Int(info.st_size))
    }

    /// The file itself when ``path`` is a link (the link stays; the file it points to is replaced).
    private var target: String { URL(fileURLWithPath: path).resolvingSymlinksInPath().path }

    /// How many times this process has read a config file (``load()``): one invocation reads it
    /// once at most (``ConfigLoader``), which the tests count.
    static let reads = Mutex(0)

    /// How many times this process has parsed a config file's YAML.
    static let parses = Mutex(0)

    /// How many keys of config files this process has read: reading looks at each key once
    /// (``YAMLNode/configPairs(at:)``), which the tests count to show that the work grows with
    /// the file, not with its square.
    static let keysRead = Mutex(0)

    /// How many files this process has written, which makes each temporary file's name its own.
    private static let writes = Mutex(0)

    /// Reads and checks the file; one that does not exist, or is empty, is an empty configuration.
    ///
    /// - Throws: ``CLIError`` naming the file, line and key, what is wrong and what to do; for a
    ///   file over ``sizeLimit``, its size and the limit.
    func load() throws(CLIError) -> ConfigFile {
        Self.reads.withLock { $0 += 1 }
        guard let status = fileStatus, status.type != S_IFCHR else { return ConfigFile() }
        guard status.type == S_IFREG else {
            throw CLIError(.dataError, "the config file \(path) is not a regular file", hint: "set SMPCTL_CONFIG to a file, or remove what is there")
        }
        guard status.size <= Self.sizeLimit else {
            throw CLIError(
                .dataError, "the config file \(path) is \(status.size) bytes, more than the \(Self.sizeLimit >> 20) MiB (\(Self.sizeLimit) bytes) smpctl reads",
                hint: "that is room for tens of thousands of profiles: is it the right file?\n" + fixHint)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError(.dataError, "cannot read the config file \(path)", hint: "check its permissions, or set SMPCTL_CONFIG to another file")
        }
        let text = String(decoding: data, as: UTF8.self)
        let node: YAMLNode?
        Self.parses.withLock { $0 += 1 }
        do {
            node = try YAMLReader.document(in: text)
        } catch {
            throw CLIError(.dataError, "\(path):\(error.line)\(error.column.map { ":\($0)" } ?? ""): not valid YAML: \(error.problem)", hint: fixHint)
        }
        guard let node else { return ConfigFile() }
        guard node.mapping != nil else {
            throw CLIError(
                .dataError, "\(path):\(node.line): the config file must be a mapping with the sections defaults and profiles",
                hint: fixHint)
        }
        do throws(ConfigProblem) {
            let file = try ConfigFile(node: node)
            try file.validate()
            return file
        } catch {
            throw located(error, in: node)
        }
    }

    /// Changes the file: reads it, lets `change` change what was read, and writes the result
    /// atomically (``save(_:to:)``), all under the file's lock, so that changes made at once (two
    /// `profile add`s) are made one after the other, each to what the one before wrote. A check
    /// of what is in the file (does the profile exist?) belongs in `change`, which sees the file
    /// as it is. Nothing is written when `change` throws.
    ///
    /// The lock is `flock(LOCK_EX)` on `FILE.lock`, beside the file (after links), created when
    /// missing and never removed:
    /// - not on the file itself, which the rename replaces: a process that opened the old file
    ///   would lock it while another locks the new one;
    /// - not on the folder: it may hold other files (`SMPCTL_CONFIG=/tmp/a.yaml`), and over NFS a
    ///   lock needs a descriptor open for writing, which a folder cannot have;
    /// - never removed, since a process waiting on the removed file would then hold a lock nobody
    ///   else sees.
    ///
    /// The kernel lets go of the lock when the process ends, however it ends. Readers (every
    /// device command) take no lock: the rename shows them the old file or the new one whole.
    ///
    /// - Returns: what `change` returns.
    /// - Throws: ``CLIError`` when the file is not a regular file, cannot be read, locked or
    ///   written (naming the file and what to do), or what `change` throws.
    func update<Value>(_ change: (inout ConfigFile) throws(CLIError) -> Value) throws(CLIError) -> Value {
        if let type = fileStatus?.type, type != S_IFREG {
            throw CLIError(
                .usage, "cannot save profiles in \(path): it is not a regular file", hint: "set SMPCTL_CONFIG to a file, or unset it to use the default")
        }
        let target = target
        let directory = URL(fileURLWithPath: target).deletingLastPathComponent().path
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw CLIError(
                .outputError, "cannot create the folder \(directory) for the config file \(path): \(fileErrorReason(error))",
                hint: "check that its parent folder is writable, or set SMPCTL_CONFIG to a file in a writable folder")
        }
        let lockPath = target + ".lock"
        let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o666)
        guard lock >= 0 else { throw lockError(lockPath) }
        // Closing the descriptor lets go of the lock.
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else { throw lockError(lockPath) }
        }
        var file = try load()
        let value = try change(&file)
        try save(file, to: target)
        return value
    }

    /// The lock file could not be opened or locked (`errno` says why).
    private func lockError(_ lockPath: String) -> CLIError {
        CLIError(
            .outputError, "cannot lock the config file \(path) to change it: \(lockPath): \(String(cString: strerror(errno)))",
            hint: "smpctl needs to create and lock that file beside the config file: check that the folder is writable, or set SMPCTL_CONFIG to a file in a writable folder")
    }

    /// Writes `file` to `target` atomically: a temporary file beside it, named for this process
    /// and this write, then a rename.
    private func save(_ file: ConfigFile, to target: String) throws(CLIError) {
        let temporary = target + ".tmp-\(getpid())-\(Self.writes.withLock { $0 += 1; return $0 })"
        do {
            let body = try YAMLWriter.text(of: file.node)
            let text = "# smpctl configuration: defaults and profiles (docs/configuration.md)\n" + (file == ConfigFile() ? "" : body)
            try Data(text.utf8).write(to: URL(fileURLWithPath: temporary), options: .withoutOverwriting)
        } catch {
            unlink(temporary)
            throw CLIError(.outputError, "cannot write the config file \(path): \(fileErrorReason(error))", hint: "check that its folder is writable")
        }
        // The replaced file's permissions carry over (a user who made it 0600 keeps it so).
        var original = stat()
        if stat(target, &original) == 0 { chmod(temporary, original.st_mode & 0o7777) }
        guard rename(temporary, target) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw CLIError(.outputError, "cannot replace the config file \(path): \(reason)", hint: "check that its folder is writable")
        }
    }

    /// Whether the file holds comments, which a rewrite does not keep.
    var hasComments: Bool {
        guard let data = FileManager.default.contents(atPath: path) else { return false }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").contains {
            let line = $0.drop { $0 == " " || $0 == "\t" }
            return line.hasPrefix("#") && !line.hasPrefix("# smpctl configuration:")
        }
    }

    /// `problem` with the file and the line of the key it is about.
    private func located(_ problem: ConfigProblem, in root: YAMLNode) -> CLIError {
        var node = root
        var line = root.line
        for key in problem.path {
            guard let mapping = node.mapping, let pair = mapping.first(where: { $0.key.scalar == key }) else { break }
            line = pair.key.line
            node = pair.value
        }
        let hint = [problem.hint, fixHint].compactMap { $0 }.joined(separator: "\n")
        return CLIError(.dataError, "\(path):\(line): \(problem.keyPath): \(problem.message)", hint: hint)
    }
}
