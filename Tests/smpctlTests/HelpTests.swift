import Foundation
import SMPTestSupport
import XCTest

/// `--help` of every command, `--version`, and shell completion scripts.
final class HelpTests: XCTestCase {
    private static let commands: [[String]] = [
        [], ["os"], ["os", "echo"], ["os", "taskstat"], ["os", "mpstat"], ["os", "datetime"], ["os", "reset"], ["os", "params"],
        ["os", "info"], ["os", "bootloader"], ["os", "console-echo"], ["image"], ["image", "list"], ["image", "test"],
        ["image", "confirm"], ["image", "erase"], ["image", "slots"], ["image", "info"], ["package"], ["package", "info"], ["ports"], ["raw"], ["simulate"], ["demo"],
    ]

    func testEveryCommandHasHelp() async throws {
        for path in Self.commands {
            let run = try await SMPCtl.run(path + ["--help"])
            assertSuccess(run)
            XCTAssertTrue(run.stdout.hasPrefix("OVERVIEW: "), "\(path): \(run)")
            XCTAssertTrue(run.stdout.contains("USAGE: " + (["smpctl"] + path).joined(separator: " ")), "\(path): \(run)")
        }
    }

    func testHelpSubcommandAndShortFlag() async throws {
        let viaHelp = try await SMPCtl.run(["help", "os", "reset"])
        assertSuccess(viaHelp)
        let viaFlag = try await SMPCtl.run(["os", "reset", "-h"])
        assertSuccess(viaFlag)
        XCTAssertEqual(viaHelp.stdout, viaFlag.stdout)
        XCTAssertTrue(viaFlag.stdout.contains("--boot-mode"))
    }

    func testDeviceCommandsDocumentTheCommonOptions() async throws {
        for path in Self.commands where path.first == "os" && path.count == 2 {
            let run = try await SMPCtl.run(path + ["--help"])
            for option in ["-c, --connection <connection-string>", "--timeout <seconds>", "--retries <count>", "--json ", "-v "] {
                XCTAssertTrue(run.stdout.contains("\n  " + option), "\(path) help lacks \(option)")
            }
        }
    }

    func testTopLevelHelpListsEveryCommandAndTheExitCodes() async throws {
        let run = try await SMPCtl.run(["--help"])
        assertSuccess(run)
        for command in ["os", "raw", "simulate", "demo"] {
            XCTAssertTrue(run.stdout.contains("\n  \(command) "), "top-level help lacks \(command)")
        }
        XCTAssertTrue(run.stdout.contains("SMPCTL_CONNECTION"))
        XCTAssertTrue(run.stdout.contains("75 timeout"))
    }

    /// Every help text of every command, as the man pages read it (`--experimental-dump-help`):
    /// plain ASCII, since argument-parser's man page writer drops other characters ("buf_count
    /// − 1" read "buf_count  1"), and no line of a discussion broken inside a sentence, which
    /// help at any width and the man pages would show as a break mid-phrase (a line that does
    /// not end a sentence, a clause or a list item, followed by one that is not indented).
    func testHelpTextsAreASCIIAndBreakOnlyBetweenSentences() async throws {
        let run = try await SMPCtl.run(["--experimental-dump-help"])
        assertSuccess(run)
        let tool = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        var problems: [String] = []
        func strings(_ value: Any, path: String) {
            if let text = value as? String, let odd = text.unicodeScalars.first(where: { !$0.isASCII }) {
                problems.append("\(path): \"\(odd)\" in \(text.prefix(80))")
            } else if let object = value as? [String: Any] {
                let name = (object["commandName"] as? String).map { path + " " + $0 } ?? path
                for member in object.values { strings(member, path: name) }
                let lines = (object["discussion"] as? String ?? "").split(separator: "\n", omittingEmptySubsequences: false)
                for (line, next) in zip(lines, lines.dropFirst())
                where !line.isEmpty && !line.hasPrefix(" ") && !next.isEmpty && !next.hasPrefix(" ") && !".:;!?)".contains(line.last ?? ".") {
                    problems.append("\(name): a line break inside a sentence: \"\(line.suffix(40))⏎\(next.prefix(40))\"")
                }
            } else if let array = value as? [Any] {
                for member in array { strings(member, path: path) }
            }
        }
        strings(tool, path: "smpctl")
        XCTAssertEqual(problems, [], problems.joined(separator: "\n"))
    }

    /// argument-parser writes `smpctl os info <options>` for a command with more than 12 options,
    /// as if they were needed: no command's usage says so.
    func testNoUsageMakesOptionsLookRequired() async throws {
        let dump = try await SMPCtl.run(["--experimental-dump-help"])
        let tool = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        var leaves: [[String]] = []
        func walk(_ command: [String: Any], path: [String]) {
            let subcommands = command["subcommands"] as? [[String: Any]] ?? []
            if subcommands.isEmpty { leaves.append(path) }
            for subcommand in subcommands {
                guard let name = subcommand["commandName"] as? String, name != "help" else { continue }
                walk(subcommand, path: path + [name])
            }
        }
        walk(tool["command"] as? [String: Any] ?? [:], path: [])
        XCTAssertGreaterThan(leaves.count, 60)
        for path in leaves {
            let run = try await SMPCtl.run(path + ["--help"])
            let usage = try XCTUnwrap(run.stdout.split(separator: "\n").first { $0.hasPrefix("USAGE: ") }, "\(path): \(run)")
            XCTAssertFalse(usage.hasSuffix(" <options>"), "\(path): \(usage)")
        }
        let info = try await SMPCtl.run(["help", "os", "info"])
        XCTAssertTrue(info.stdout.contains("\nUSAGE: smpctl os info [<options>]\n"), info.stdout)
    }

    func testNoArgumentsPrintsHelp() async throws {
        let run = try await SMPCtl.run([])
        XCTAssertTrue(run.stdout.contains("USAGE: smpctl <subcommand>") || run.stderr.contains("USAGE: smpctl <subcommand>"), run.description)
    }

    func testVersion() async throws {
        // `smpctl RELEASE`, then the commit when built from git (Plugins/VersionStamp); RELEASE is the
        // last tag's or, without tags (a fresh clone), VERSION's.
        let run = try await SMPCtl.run(["--version"])
        assertSuccess(run)
        let release = try String(contentsOf: ExternalTool.packageRoot.appendingPathComponent("VERSION"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let pattern = #"^smpctl [0-9]+\.[0-9]+\.[0-9]+[^ \n]*( \([0-9a-f]{7,}(-dirty)?\))?\n$"#
        XCTAssertNotNil(run.stdout.range(of: pattern, options: .regularExpression), run.stdout)
        let tagged = try ProcessRunner.run("git", ["-C", ExternalTool.packageRoot.path, "describe", "--tags", "--match", "v[0-9]*", "--match", "[0-9]*"], timeout: 30)
        if tagged.status != 0 {
            XCTAssertTrue(run.stdout.hasPrefix("smpctl \(release)"), "without a tag the release is VERSION's (\(release)): \(run.stdout)")
        }
    }

    func testAnUnknownCommandOrOptionIsAUsageError() async throws {
        let command = try await SMPCtl.run(["os", "frobnicate"])
        assertExit(command, 64)
        let option = try await SMPCtl.run(["os", "echo", "--loud", "-c", "udp:127.0.0.1"])
        assertExit(option, 64)
        assertStderr(option, contains: "--loud")
    }

    func testCompletionScripts() async throws {
        let expectations: [(String, [String])] = [
            ("bash", ["complete ", "_smpctl", "simulate", "console-echo"]),
            ("zsh", ["#compdef smpctl", "simulate", "console-echo"]),
            ("fish", ["complete -c 'smpctl'", "simulate", "console-echo"]),
        ]
        for (shell, fragments) in expectations {
            let run = try await SMPCtl.run(["--generate-completion-script", shell])
            assertSuccess(run)
            for fragment in fragments {
                XCTAssertTrue(run.stdout.contains(fragment), "\(shell) script lacks \(fragment)")
            }
        }
        let unknown = try await SMPCtl.run(["--generate-completion-script", "powershell"])
        XCTAssertNotEqual(unknown.status, 0)
    }
}
