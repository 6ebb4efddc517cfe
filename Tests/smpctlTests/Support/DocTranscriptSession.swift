import Foundation
import SMP
import SMPTestSupport
import XCTest

/// Runs documented commands the way a reader would, in a bash with `smpctl` on its PATH, in a
/// scratch folder holding the files they name (``DocTranscriptFiles``), against a device:
///
/// | in the doc | here |
/// |---|---|
/// | `udp:192.0.2.N`, `udp:127.0.0.1[:PORT]`, no `-c` | the `smpctl simulate` of the command's flavour (`SMPCTL_CONNECTION`) |
/// | `serial:/dev/ttyACM0`, `serial:/dev/serial/by-id/…` | that simulator's serial link (a pty) |
/// | `/tmp/…` | the scratch folder's `tmp/` |
/// | `127.0.0.1:PORT` in a block that starts its own `smpctl simulate --udp 127.0.0.1:PORT` | a free port, the same in the whole block (and PORT again in an exact transcript's output) |
/// | `127.0.0.1:PORT-LAST` there (`simulate --count N`) | as many ports from that one |
/// | `smpctl simulate … &` | started, checked to listen, stopped at the end of its block |
/// | `--watch S` without `--count` | `--watch S --count 2` |
/// | `\| less` | `\| cat` |
/// | `~` | a scratch home |
///
/// The flavour: `<!-- transcript: simulate OPTIONS -->` before the block, else ``flavours`` by
/// what the command holds (log/run/crash: `--mynewt`; SUIT: `--suit`; `--via-bootloader`:
/// `--serial-recovery`), else Zephyr with one image. `<!-- transcript: fixture CONFIG -->` runs
/// the block against that native_sim fixture instead; `<!-- transcript: as written -->` leaves
/// connection strings alone (error examples); `<!-- transcript: fresh device -->` starts the
/// block on new simulators, as each document does; `<!-- transcript: exact -->` compares the
/// whole output shown (standard error and output as a terminal interleaves them) with the
/// output printed, line by line, times, rates and addresses aside.
final class DocTranscriptSession {
    /// What the doc says the command does.
    enum Expectation: Equatable {
        /// Exits with this status.
        case status(Int32)
        /// Exits with any failure status (the doc shows `error: …`).
        case failure
        /// `…; echo $?` printing this last line.
        case echoed(String)
    }

    /// The result of one command.
    struct Outcome {
        var comparedOutput = false
        var failure: String?
    }

    /// Simulator options by what a command holds, for blocks without a directive.
    /// `["fixture", CONFIG]` names a native_sim fixture instead.
    static let flavours: [(patterns: [String], options: [String])] = [
        (["Zephyr's udp sample"], ["fixture", "udp"]),
        (["log show", "log list", "log levels", "log modules", "log clear", "run list", "run test", "crash test", "a Mynewt device"], ["--mynewt"]),
        (["suit ", "dfu_suit.zip", "root.suit", "cache-upload"], ["--suit"]),
        (["--via-bootloader"], ["--serial-recovery"]),
    ]

    private struct Simulator {
        var process: BackgroundProcess
        var udp: String
        var serial: String
    }

    private let test: XCTestCase
    private let scratch: URL
    private let work: URL
    private let tmp: URL
    private let home: URL
    private let path: String
    private var simulators: [[String]: Simulator] = [:]
    private var blockProcesses: [BackgroundProcess] = []
    /// The port a block's own `smpctl simulate --udp 127.0.0.1:PORT` shows, and the free port it gets.
    private var blockPort: (documented: Int, actual: Int)?
    private var fixture: NativeSimDevice?
    private var wroteSUITFiles = false

    init(test: XCTestCase) throws {
        self.test = test
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("smpctl-doc-\(UUID().uuidString.prefix(8))")
        work = scratch.appendingPathComponent("work")
        tmp = scratch.appendingPathComponent("tmp")
        home = scratch.appendingPathComponent("home")
        for folder in [work, tmp, home.appendingPathComponent(".local/share/bash-completion/completions"),
                       home.appendingPathComponent(".local/share/zsh/site-functions"), home.appendingPathComponent(".config/fish/completions")] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        try DocTranscriptFiles.write(into: work)
        let executable = try SMPCtl.executable()
        path = (executable as NSString).deletingLastPathComponent + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    }

    /// Stops everything started and removes the scratch folder.
    func stop() {
        endBlock()
        for simulator in simulators.values { simulator.process.stop() }
        fixture?.stop(grace: 0)
        try? FileManager.default.removeItem(at: scratch)
    }

    /// Stops the shared simulators: the next command gets a fresh device (a new document, or a
    /// block marked `<!-- transcript: fresh device -->`).
    func freshDevices() {
        for simulator in simulators.values { simulator.process.stop() }
        simulators = [:]
    }

    /// Stops the simulators the block's own commands started.
    func endBlock() {
        for process in blockProcesses { process.stop() }
        blockProcesses = []
        blockPort = nil
    }

    /// Runs `command`, one of `block`'s commands.
    func run(_ command: DocTranscript.Command, in block: [DocTranscript.Command]) async throws -> Outcome {
        let asWritten = command.directives.contains("as written")
        let (udp, serial, chosen) = try await target(for: command)
        if blockPort == nil, let start = block.first(where: { $0.text.hasPrefix("smpctl simulate") && $0.text.contains("--udp") }) {
            let shown = start.text.firstMatch(of: /--udp 127\.0\.0\.1:([0-9]+)/).flatMap { Int($0.1) } ?? 1337
            blockPort = (shown, try Self.freeUDPPort())
        }
        // A block that starts its own simulator talks to it, unless the command needs another kind of device.
        let endpoint = chosen ? udp : blockPort.map { "udp:127.0.0.1:\($0.actual)" } ?? udp
        let text = substituted(command.text, udp: endpoint, serial: serial, asWritten: asWritten)
        // `smpctl simulate … &  smpctl …`: the simulator in the background, then the command.
        let parts = text.components(separatedBy: "&  smpctl").flatMap { $0.components(separatedBy: "& smpctl") }
        var outcome = Outcome()
        for (index, part) in parts.enumerated() {
            let line = (index == 0 ? "" : "smpctl") + part
            if line.hasPrefix("smpctl simulate") {
                if let failure = try await startSimulator(line) { return Outcome(failure: failure) }
                continue
            }
            outcome = try await runInShell(line, command: command, connection: asWritten ? "" : endpoint)
            if outcome.failure != nil { return outcome }
        }
        return outcome
    }

    /// What the doc shows the command doing.
    static func expectation(for command: DocTranscript.Command) -> Expectation {
        if let match = command.text.range(of: #"\(exit [0-9]+\)"#, options: .regularExpression),
            let status = Int32(command.text[match].dropFirst(6).dropLast()) {
            return .status(status)
        }
        if command.text.contains("echo $?"), let last = command.output.last {
            return .echoed(last.trimmingCharacters(in: .whitespaces))
        }
        let first = command.output.first?.trimmingCharacters(in: .whitespaces) ?? ""
        if first.hasPrefix("{"), let match = first.range(of: #""error":\{"kind":"[a-z]+","exitCode":[0-9]+"#, options: .regularExpression),
            let status = Int32(first[match].split(separator: ":").last ?? "") {
            return .status(status)
        }
        if command.output.contains(where: { $0.hasPrefix("error:") }) { return .failure }
        return .status(0)
    }

    /// How long one documented command may run before it counts as hung: a guard against hangs,
    /// not a speed check (a debug build writing fish's completion script takes 8 s on an idle
    /// machine, and more than 30 s beside two other test processes on 2 cores).
    static let hangLimit: Double = 120

    private func runInShell(_ line: String, command: DocTranscript.Command, connection: String) async throws -> Outcome {
        let exact = command.directives.contains("exact")
        // An exact transcript shows standard error and standard output as a terminal would, interleaved.
        let script = "cd '\(work.path)' && " + (exact ? "exec 2>&1 && " : "") + line
        let environment = [
            "PATH": path, "HOME": home.path, "SMPCTL_CONNECTION": connection, "XDG_STATE_HOME": home.path + "/state",
            "XDG_CONFIG_HOME": home.path + "/config", "TMPDIR": tmp.path,
        ]
        let result: ProcessRunner.Result = try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result {
                    try ProcessRunner.run("/bin/bash", ["-c", script], environment: environment, timeout: Self.hangLimit)
                })
            }
        }
        let shown = "ran: \(line)\n  exit \(result.status)\(result.timedOut ? " (timed out after \(Int(Self.hangLimit)) s)" : "")\n  stdout: "
            + result.stdout.prefix(600) + "\n  stderr: " + result.stderr.prefix(600)
        guard !result.timedOut else { return Outcome(failure: shown) }
        switch Self.expectation(for: command) {
        case .status(let status) where result.status != status:
            return Outcome(failure: "expected exit \(status) as the doc shows; \(shown)")
        case .failure where result.status == 0:
            return Outcome(failure: "expected a failure (the doc shows `error:`); \(shown)")
        case .echoed(let last) where result.stdout.split(separator: "\n").last.map(String.init) != last:
            return Outcome(failure: "expected `echo $?` to print \(last) as the doc shows; \(shown)")
        default:
            break
        }
        if command.directives.contains("output varies") { return Outcome() }
        if exact { return compareExactly(documented: command.output, actual: result.stdout, shown: shown) }
        let json = compareJSON(documented: command.output, actual: result.stdout, shown: shown)
        guard !json.comparedOutput else { return json }
        return compareTableHeader(documented: command.output, actual: result.stdout, shown: shown)
    }

    /// The whole output the doc shows against the whole output printed, line by line, once the
    /// parts that change from run to run are replaced on both sides (``variable``): durations,
    /// rates, ports and addresses, the scratch folder. Plain progress lines, printed only when a
    /// transfer outlasts their interval on a loaded machine, are left out of the output.
    private func compareExactly(documented: [String], actual: String, shown: String) -> Outcome {
        let expected = documented.map { variable($0) }
        let printed = actual.split(separator: "\n", omittingEmptySubsequences: false).map { variable(documentedPorts(String($0))) }
            .filter { $0.range(of: #"^.*  +[0-9]{1,3}%  [0-9]"#, options: .regularExpression) == nil }
        var lines = printed
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard lines != expected else { return Outcome(comparedOutput: true) }
        let index = zip(expected, lines).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(expected.count, lines.count)
        let want = index < expected.count ? expected[index] : "(the end)"
        let got = index < lines.count ? lines[index] : "(the end)"
        return Outcome(
            comparedOutput: true,
            failure: "the output differs from the doc's at its line \(index + 1):\n  doc:     \(want)\n  printed: \(got)\n  whole output:\n"
                + lines.joined(separator: "\n") + "\n  " + shown)
    }

    /// `line` with the ports of the block's own simulators written as the doc shows them (the
    /// free port back to PORT, the next ones to PORT+1…), so that a table of devices keeps the
    /// widths the doc shows when both have five digits.
    private func documentedPorts(_ line: String) -> String {
        guard let (shown, port) = blockPort else { return line }
        let ports = port..<port + 100
        return line.replacing(/127\.0\.0\.1:([0-9]+)(-[0-9]+)?/) { match in
            guard let first = Int(match.1), ports.contains(first) else { return String(match.0) }
            let last = match.2.flatMap { Int($0.dropFirst()) }.map { ports.contains($0) ? "-\(shown + $0 - port)" : "-\($0)" } ?? ""
            return "127.0.0.1:\(shown + first - port)" + last
        }
    }

    /// `line` with what changes between runs replaced by placeholders.
    private func variable(_ line: String) -> String {
        var text = line.replacingOccurrences(of: tmp.path, with: "/tmp").replacingOccurrences(of: work.path + "/", with: "")
        let patterns: [(String, String)] = [
            (#"[0-9]+(\.[0-9]+)? KiB/s"#, "<rate>"), (#"\b[0-9]+m[0-9]{2}s\b"#, "<time>"), (#"\b[0-9]+(\.[0-9]+)?s\b"#, "<time>"),
            (#"udp:[0-9.]+(:[0-9]+)?"#, "udp:<address>"), (#"serial:[^ ]+"#, "serial:<port>"),
        ]
        for (pattern, placeholder) in patterns {
            text = text.replacingOccurrences(of: pattern, with: placeholder, options: .regularExpression)
        }
        return text
    }

    /// A table the doc shows (its first line a header such as `GROUP  NAME  HANDLERS`) against
    /// the header printed: the same column names in the same order.
    private func compareTableHeader(documented: [String], actual: String, shown: String) -> Outcome {
        guard let first = documented.first, first.range(of: #"^[A-Z][A-Z/-]*( +[A-Z][A-Z/-]*)+$"#, options: .regularExpression) != nil
        else { return Outcome() }
        let columns = first.split(separator: " ")
        guard actual.split(separator: "\n").contains(where: { $0.split(separator: " ") == columns }) else {
            return Outcome(comparedOutput: true, failure: "the doc shows a table with the columns \(columns.joined(separator: " ")), the command printed none; \(shown)")
        }
        return Outcome(comparedOutput: true)
    }

    /// The top-level keys of each JSON document the doc shows (one per line) against those of the
    /// lines printed: each documented line needs a printed line with the same keys (a stream of
    /// events may print more lines than the doc shows).
    private func compareJSON(documented: [String], actual: String, shown: String) -> Outcome {
        let expected = documented.compactMap { line -> Set<String>? in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return trimmed.hasPrefix("{") ? Self.keys(trimmed) : nil
        }
        guard !expected.isEmpty else { return Outcome() }
        let printed = actual.split(separator: "\n").compactMap { Self.keys(String($0)) }
        guard !printed.isEmpty else {
            return Outcome(comparedOutput: true, failure: "the doc shows a JSON document, the command printed none; \(shown)")
        }
        for keys in expected where !printed.contains(keys) {
            return Outcome(
                comparedOutput: true,
                failure: "JSON keys differ: the doc shows \(keys.sorted()), the command printed \(printed.map { $0.sorted() }); \(shown)")
        }
        return Outcome(comparedOutput: true)
    }

    private static func keys(_ line: String) -> Set<String>? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
        if let error = object["error"] as? [String: Any] { return Set(error.keys.map { "error." + $0 }) }
        return Set(object.keys)
    }

    private func substituted(_ text: String, udp: String, serial: String?, asWritten: Bool) -> String {
        var text = text.replacingOccurrences(of: "/tmp/", with: tmp.path + "/")
            .replacingOccurrences(of: "| less", with: "| cat")
        if let (shown, port) = blockPort {
            // A range of ports from the block's (`smpctl simulate --count N`): the same number from the free port.
            if let range = text.range(of: #"127\.0\.0\.1:\#(shown)-[0-9]+"#, options: .regularExpression),
                let last = Int(text[range].split(separator: "-").last ?? "") {
                text.replaceSubrange(range, with: "127.0.0.1:\(port)-\(port + last - shown)")
            }
            text = text.replacingOccurrences(of: "127.0.0.1:\(shown)", with: "127.0.0.1:\(port)")
        }
        if text.contains("--watch"), !text.contains("--count"),
            let range = text.range(of: #"--watch [0-9.]+"#, options: .regularExpression) {
            text.replaceSubrange(range, with: text[range] + " --count 2")
        }
        guard !asWritten else { return text }
        text = text.replacingOccurrences(of: #"udp:(127\.0\.0\.1|192\.0\.2\.[0-9]+)(:[0-9]+)?"#, with: udp, options: .regularExpression)
        if let serial {
            text = text.replacingOccurrences(
                of: #"serial:(/dev/ttyACM[0-9]+|/dev/serial/by-id/[^ ?']+)"#, with: "serial:" + serial, options: .regularExpression)
        }
        return text
    }

    /// The device for `command`: its UDP endpoint, its serial link path (nil for a fixture), and
    /// whether a directive or ``flavours`` chose it (rather than the default).
    private func target(for command: DocTranscript.Command) async throws -> (String, String?, Bool) {
        if let directive = command.directives.first(where: { $0.hasPrefix("fixture ") }) {
            return (try await startFixture(config: String(directive.dropFirst("fixture ".count))), nil, true)
        }
        if !command.directives.contains(where: { $0.hasPrefix("simulate") }),
            let flavour = Self.flavours.first(where: { $0.patterns.contains { command.text.contains($0) } }),
            flavour.options.first == "fixture", let config = flavour.options.last {
            return (try await startFixture(config: config), nil, true)
        }
        var options: [String] = []
        if let directive = command.directives.first(where: { $0.hasPrefix("simulate") }) {
            options = try ShellWords.split(String(directive.dropFirst("simulate".count)))
        } else if let flavour = Self.flavours.first(where: { $0.patterns.contains { command.text.contains($0) } }) {
            options = flavour.options
        }
        if options.contains("--suit"), !wroteSUITFiles {
            try DocTranscriptFiles.writeSUIT(into: work)
            wroteSUITFiles = true
        }
        let simulator = try await simulator(options)
        return (simulator.udp, simulator.serial, !options.isEmpty)
    }

    private func simulator(_ options: [String]) async throws -> Simulator {
        if let running = simulators[options], running.process.isRunning { return running }
        let link = tmp.appendingPathComponent("sim-\(simulators.count)").path
        let process = try BackgroundProcess(
            smpctl: ["simulate", "--udp", "127.0.0.1:0", "--serial-link", link, "--reset-delay", "0", "--boot-time", "0"] + options)
        let announcement = await process.waitForLine { $0.contains("listening") }
        guard let announcement, let udp = XCTestCase.endpoint(in: announcement) else {
            process.stop()
            throw DocTranscript.MarkerError(description: "smpctl simulate \(options) did not start: \(process.stdout) \(process.stderr)")
        }
        let simulator = Simulator(process: process, udp: udp, serial: link)
        simulators[options] = simulator
        return simulator
    }

    /// Starts a simulate line of the doc; a failure message when it does not listen.
    private func startSimulator(_ line: String) async throws -> String? {
        // The line without its comment and the `&` that puts it in the background.
        var text = line.components(separatedBy: " #").first ?? line
        text = text.trimmingCharacters(in: .whitespaces)
        if text.hasSuffix("&") { text.removeLast() }
        let words = try ShellWords.split(text)
        let process = try BackgroundProcess(smpctl: Array(words.dropFirst()))
        blockProcesses.append(process)
        guard await process.waitForLine(timeout: 10, where: { $0.contains("listening") }) != nil else {
            return "ran: \(line)\n  the simulator did not start listening\n  stdout: \(process.stdout)\n  stderr: \(process.stderr)"
        }
        return nil
    }

    /// The fixture folder is missing (locally only: in CI that is a failure).
    struct FixtureUnavailable: Error, CustomStringConvertible {
        var description: String
    }

    private func startFixture(config: String) async throws -> String {
        if fixture == nil {
            let folder: ZephyrFixtureFolder
            do {
                folder = try ZephyrFixtureFolder.require()
            } catch let skip as XCTSkip {
                throw FixtureUnavailable(description: "\(skip)")
            }
            fixture = try await NativeSimDevice.start(try folder.fixture(target: "native_sim", config: config), in: folder)
        }
        let port = fixture?.fixture.udpPort ?? 1337
        return "udp:127.0.0.1:\(port)"
    }

    private static func freeUDPPort() throws -> Int {
        for _ in 0..<20 {
            let port = try LoopbackPorts.freeTCPPort()
            if LoopbackPorts.udpPortIsFree(port) { return port }
        }
        throw DocTranscript.MarkerError(description: "no free UDP port on the loopback")
    }
}
