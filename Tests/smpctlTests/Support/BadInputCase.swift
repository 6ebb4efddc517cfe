import Foundation

/// One bad input or fault of the table in docs/bad-inputs.md: what `smpctl` is run with, against
/// which device, with which standard streams, and the exit statuses it may end with.
struct BadInputCase: Sendable {
    /// The table's categories, in the table's order.
    enum Category: String, CaseIterable, Sendable {
        case connection = "connection strings"
        case numbers
        case ports
        case files
        case device = "device errors"
        case faults
        case json = "JSON"
        case pipes
        case manyDevices = "many devices"
    }

    /// How the standard streams are set up (the table shows it as the shell would write it).
    enum Streams: Sendable, Equatable {
        /// Pipes read by the test; standard input empty.
        case pipes
        /// Standard input gives this text.
        case input(String)
        /// `>&-`, `2>&-`, `<&-`.
        case closedStdout, closedStderr, closedStdin
        /// `>/dev/full`, `2>/dev/full`.
        case fullStdout, fullStderr
        /// `| head -n N`: standard output read for N lines, then closed.
        case head(Int)
        /// `2>&1 | head -n N`: both streams into a pipe closed after N lines (stderr is then not seen).
        case bothHead(Int)
        /// `<PATH` (`$TMP` expanded).
        case stdinFrom(String)
    }

    var category: Category
    /// What is bad about the input, for the table.
    var title: String
    /// The arguments; `$TMP` stands for the case folder and is shown as such.
    var arguments: [String]
    /// The device `-c` points at, prepended as `-c ENDPOINT`; nil for none.
    var device: BadInputDevice?
    var streams: Streams = .pipes
    /// Extra environment (e.g. `SMPCTL_CONNECTION`); `$TMP` stands for the case folder, as in the arguments.
    var environment: [String: String] = [:]
    /// The exit statuses that are right for this input (a documented class).
    var expected: Set<Int32>
    /// How long the case may run before it counts as a hang.
    var timeout: TimeInterval = 30
    /// The case names a host that must not resolve: smpctl looks names up in /etc/hosts only
    /// (``FilesOnlyHostResolution``), so that no DNS query leaves the machine.
    var hostsFromFilesOnly = false
    /// Which of the expected statuses it ends with depends on timing (fractions of faults, a device
    /// killed mid-command): the table shows the expected statuses, not the one of this run, so that
    /// it does not change from run to run.
    var outcomeVaries = false
    /// The exit status is the device's (as `shell exec` passes on its command's return code), so
    /// neither docs/exit-codes.md nor an `error:` line applies.
    var passesDeviceStatusThrough = false
    /// Checked after the run (e.g. that a file next to the destination is unchanged); returns a
    /// problem, or nil when all is well. Gets the case folder.
    var afterwards: (@Sendable (String) -> String?)?

    init(
        _ category: Category, _ title: String, _ arguments: [String], device: BadInputDevice? = nil, streams: Streams = .pipes,
        environment: [String: String] = [:], expect expected: Set<Int32>, timeout: TimeInterval = 30, hostsFromFilesOnly: Bool = false,
        outcomeVaries: Bool = false, passesDeviceStatusThrough: Bool = false, afterwards: (@Sendable (String) -> String?)? = nil
    ) {
        self.category = category
        self.title = title
        self.arguments = arguments
        self.device = device
        self.streams = streams
        self.environment = environment
        self.expected = expected
        self.timeout = timeout
        self.hostsFromFilesOnly = hostsFromFilesOnly
        self.passesDeviceStatusThrough = passesDeviceStatusThrough
        self.outcomeVaries = outcomeVaries
        self.afterwards = afterwards
    }

    /// The command as the table shows it.
    var commandLine: String {
        var words = ["smpctl"]
        if let device { words += ["-c", "<\(device.label)>"] }
        words += arguments.map(Self.shellQuoted)
        let command = words.joined(separator: " ")
        let environmentPrefix = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.shellQuoted($0.value)) " }.joined()
        switch streams {
        case .pipes: return environmentPrefix + command
        case .input(let text): return "printf %s \(Self.shellQuoted(text)) | \(environmentPrefix)\(command)"
        case .closedStdout: return environmentPrefix + command + " >&-"
        case .closedStderr: return environmentPrefix + command + " 2>&-"
        case .closedStdin: return environmentPrefix + command + " <&-"
        case .fullStdout: return environmentPrefix + command + " >/dev/full"
        case .fullStderr: return environmentPrefix + command + " 2>/dev/full"
        case .head(let lines): return environmentPrefix + command + " | head -n \(lines)"
        case .bothHead(let lines): return environmentPrefix + command + " 2>&1 | head -n \(lines)"
        case .stdinFrom(let path): return environmentPrefix + command + " <" + path
        }
    }

    /// A word as a shell would need it (long words shortened for the table).
    static func shellQuoted(_ word: String) -> String {
        var shown = word
        if shown.count > 60 { shown = String(shown.prefix(40)) + "…(\(word.utf8.count) bytes)" }
        let plain = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_./:=@$,+%<>[]"))
        if !shown.isEmpty && shown.unicodeScalars.allSatisfy({ plain.contains($0) && $0.isASCII }) { return shown }
        return "'" + shown.replacingOccurrences(of: "'", with: "'\\''").replacingOccurrences(of: "\n", with: "\\n") + "'"
    }
}

/// The devices cases run against: the virtual device in-process with a configuration or fault,
/// or a real `smpctl simulate` process that is killed.
enum BadInputDevice: String, Hashable, Sendable, CaseIterable {
    /// A Zephyr-like device with files, images, settings.
    case plain
    /// Reset refused unless forced.
    case refuseReset = "refuse-reset"
    /// No image management group, no file system.
    case bare
    /// Clock not set (`RTC_NOT_SET`).
    case unsetClock = "rtc-unset"
    /// Every response dropped.
    case dropAll = "drop=1"
    /// A third of the responses dropped.
    case dropThird = "drop=0.3"
    /// Every response corrupted.
    case corruptAll = "corrupt=1"
    /// A third of the responses corrupted.
    case corruptThird = "corrupt=0.3"
    /// Every response sent twice.
    case duplicateAll = "duplicate=1"
    /// Every response held back until the next.
    case reorderAll = "reorder=1"
    /// Every response delayed by 2 s.
    case delayAll = "delay=1,2s"
    /// Every request answered busy.
    case busyAll = "busy=1"
    /// A socket that never answers (a device switched off).
    case silent
    /// A `smpctl simulate` process killed before the command (nothing listens on its port).
    case killed
    /// A `smpctl simulate` process (slow flash) killed one second into the command.
    case killedMidway = "killed mid-command"

    /// How the table names it.
    var label: String { "device \(rawValue)" }
}

/// The exit status classes of docs/exit-codes.md that cases expect.
extension Set where Element == Int32 {
    static let success: Set<Int32> = [0]
    static let device: Set<Int32> = [2]
    static let usage: Set<Int32> = [64]
    static let data: Set<Int32> = [65]
    static let usageOrData: Set<Int32> = [64, 65]
    static let transport: Set<Int32> = [69]
    static let timeout: Set<Int32> = [75]
    static let timeoutOrProtocol: Set<Int32> = [75, 76]
    static let output: Set<Int32> = [74]
}
