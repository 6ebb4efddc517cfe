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

    func testNoArgumentsPrintsHelp() async throws {
        let run = try await SMPCtl.run([])
        XCTAssertTrue(run.stdout.contains("USAGE: smpctl <subcommand>") || run.stderr.contains("USAGE: smpctl <subcommand>"), run.description)
    }

    func testVersion() async throws {
        let run = try await SMPCtl.run(["--version"])
        assertSuccess(run)
        XCTAssertEqual(run.stdout, "0.1.0\n")
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
