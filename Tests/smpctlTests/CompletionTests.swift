import Foundation
@testable import smpctl
import SMPTestSupport
import XCTest

/// Shell completion as the shells run it: bash sources the generated script and calls the function
/// `complete -p smpctl` names with `COMP_WORDS` split as bash splits them (at `:` too); zsh and
/// fish parse their scripts; the `-c` candidates and the profile names come from smpctl itself.
final class CompletionTests: XCTestCase {
    /// A folder with firmware and other files, and a fake `/dev` with serial ports.
    private static let folder: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("smpctl-completion-\(UUID().uuidString)")
        let files = FileManager.default
        for path in ["work/dir", "dev/serial/by-id"] {
            try? files.createDirectory(at: folder.appendingPathComponent(path), withIntermediateDirectories: true)
        }
        for path in ["work/fw.bin", "work/fw.hex", "work/app.zip", "work/notes.txt", "dev/ttyACM3", "dev/ttyS0", "dev/serial/by-id/usb-ZEPHYR_Board_0123-if00"] {
            _ = files.createFile(atPath: folder.appendingPathComponent(path).path, contents: Data())
        }
        return folder
    }()

    override class func tearDown() {
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    /// The candidates bash offers for `line` (the cursor at its end), after the `complete` line's
    /// function ran in a real bash that sourced `smpctl --generate-completion-script bash`.
    private func bashCandidates(_ line: String, file: StaticString = #filePath, line sourceLine: UInt = #line) throws -> [String] {
        let smpctl = try SMPCtl.executable()
        let bash = try MockedDevices.require("bash", package: "bash")
        let driver = #"""
            set -u
            source <("$SMPCTL" --generate-completion-script bash) || exit 3
            spec=$(complete -p smpctl) || exit 4
            function=${spec##*-F }
            function=${function%% *}
            COMP_LINE=$LINE
            COMP_POINT=${#LINE}
            eval "COMP_WORDS=($WORDS)"
            COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            COMPREPLY=()
            prev=
            ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
            "$function" smpctl "${COMP_WORDS[COMP_CWORD]}" "$prev"
            printf '%s\n' "${COMPREPLY[@]}"
            """#
        let environment = [
            "SMPCTL": smpctl, "LINE": line, "WORDS": Self.bashWords(line).map { "'\($0)'" }.joined(separator: " "),
            "PATH": URL(fileURLWithPath: smpctl).deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "SMPCTL_DEVICE_DIRECTORY": Self.folder.appendingPathComponent("dev").path,
        ]
        let work = Self.folder.appendingPathComponent("work").path
        let result = try ProcessRunner.run(bash, ["-c", "cd \"$0\" && " + driver, work], environment: environment, timeout: 30)
        XCTAssertEqual(result.status, 0, "bash failed for \(line)\n\(result.stderr)", file: file, line: sourceLine)
        XCTAssertEqual(result.stderr, "", "bash wrote to standard error for \(line)", file: file, line: sourceLine)
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// `line` split into words as bash splits it for completion: at blanks, and at colons and equals
    /// signs, a run of them being a word of its own (the default `COMP_WORDBREAKS`); a trailing
    /// blank starts an empty word.
    private static func bashWords(_ line: String) -> [String] {
        var words: [String] = []
        for token in line.split(separator: " ") {
            var word = ""
            for character in token {
                if let last = word.last, ":=".contains(character) != ":=".contains(last) {
                    words.append(word)
                    word = ""
                }
                word.append(character)
            }
            words.append(word)
        }
        if line.hasSuffix(" ") { words.append("") }
        return words
    }

    func testFirmwareArgumentsCompleteFirmwareFilesAndFolders() throws {
        let upgrade = try bashCandidates("smpctl upgrade ")
        XCTAssertEqual(Set(upgrade), ["fw.bin", "fw.hex", "app.zip", "dir"])
        let image = try bashCandidates("smpctl image upload f")
        XCTAssertEqual(Set(image), ["fw.bin", "fw.hex"])
        // After a connection string (split at its colon by bash) the file is still the first argument.
        let afterConnection = try bashCandidates("smpctl upgrade -c serial:/dev/ttyACM0 fw.")
        XCTAssertEqual(Set(afterConnection), ["fw.bin", "fw.hex"])
        let leading = try bashCandidates("smpctl -c udp:[::1]:1337 image info ")
        XCTAssertEqual(Set(leading), ["fw.bin", "fw.hex", "dir"])
    }

    func testLocalPathsCompleteEveryFile() throws {
        let put = try bashCandidates("smpctl fs put ")
        XCTAssertEqual(Set(put), ["fw.bin", "fw.hex", "app.zip", "notes.txt", "dir"])
        let get = try bashCandidates("smpctl fs get /lfs1/log.txt n")
        XCTAssertEqual(get, ["notes.txt"])
    }

    func testConnectionSchemesAndPortsComplete() throws {
        let schemes = try bashCandidates("smpctl os echo -c ")
        for scheme in ["udp:", "serial:", "ble:", "serial:tcp://"] {
            XCTAssertTrue(schemes.contains(scheme), "\(scheme) missing from \(schemes)")
        }
        XCTAssertEqual(try bashCandidates("smpctl -c u"), ["udp:"], "before the subcommand too")
        let dev = Self.folder.appendingPathComponent("dev").path
        // bash replaces only what follows the last colon, so that is what comes back.
        let ports = try bashCandidates("smpctl -c serial:")
        XCTAssertEqual(
            Set(ports), ["tcp://", "usb=", "auto", "\(dev)/serial/by-id/usb-ZEPHYR_Board_0123-if00", "\(dev)/ttyACM3"],
            "ports: stable links and ttyACM*/ttyUSB*, not ttyS*")
        let port = try bashCandidates("smpctl image list --connection serial:\(dev)/tty")
        XCTAssertEqual(port, ["\(dev)/ttyACM3"])
    }

    func testSubcommandsComplete() throws {
        XCTAssertEqual(try bashCandidates("smpctl im"), ["image"])
        let image = try bashCandidates("smpctl -c udp:127.0.0.1 image ")
        for command in ["list", "upload", "info", "test"] {
            XCTAssertTrue(image.contains(command), "\(command) missing from \(image)")
        }
    }

    func testZshAndFishScriptsParse() async throws {
        for (shell, check) in [("zsh", ["-n"]), ("fish", ["--no-execute"])] {
            let program = try MockedDevices.require(shell, package: shell)
            let script = try await SMPCtl.run(["--generate-completion-script", shell])
            assertSuccess(script)
            let path = Self.folder.appendingPathComponent("smpctl.\(shell)").path
            try script.stdout.write(toFile: path, atomically: true, encoding: .utf8)
            let parsed = try ProcessRunner.run(program, check + [path], timeout: 30)
            XCTAssertEqual(parsed.status, 0, "\(shell) does not parse its script: \(parsed.stderr)")
            XCTAssertTrue(script.stdout.contains("---completion"), "\(shell): the connection strings are completed by smpctl")
        }
    }

    func testConnectionCandidatesAsZshAndFishAskForThem() async throws {
        let run = try await SMPCtl.run(
            ["---completion", "os", "echo", "--", "--connection", "3", "2", "smpctl", "os", "echo", "ud"],
            environment: ["SMPCTL_DEVICE_DIRECTORY": Self.folder.appendingPathComponent("dev").path])
        assertSuccess(run)
        XCTAssertEqual(run.stdout, "udp:\n")
        // zsh's _describe splits `value:description` at the first colon: colons in values are escaped.
        let dev = Self.folder.appendingPathComponent("dev").path
        let prefix = "serial:\(dev)/tty"
        let zsh = try await SMPCtl.run(
            ["---completion", "os", "echo", "--", "--connection", "3", "\(prefix.count)", "smpctl", "os", "echo", prefix],
            environment: ["SMPCTL_DEVICE_DIRECTORY": dev, "SAP_SHELL": "zsh"])
        assertSuccess(zsh)
        XCTAssertTrue(zsh.stdout.hasPrefix("serial\\:\(dev)/ttyACM3\n"), zsh.stdout)
    }

    func testProfileNamesAreTheKeysOfTheProfilesMap() throws {
        let yaml = """
            # smpctl profiles
            defaults:
              timeout: 2
            profiles:
              bench:
                connection: serial:/dev/ttyACM0?baud=115200
                timeout: 3
              lab-2:
                connection: udp:192.0.2.1

              sim: {connection: "udp:127.0.0.1:1337"}
            """
        let config = Self.folder.appendingPathComponent("config/smpctl")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try yaml.write(to: config.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
        let environment = ["XDG_CONFIG_HOME": Self.folder.appendingPathComponent("config").path]
        XCTAssertEqual(ProfileNameCompletion.names(environment: environment), ["bench", "lab-2", "sim"])
        XCTAssertEqual(ProfileNameCompletion.names(environment: ["HOME": "/nonexistent"]), [])
        try "profiles: [broken".write(to: config.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
        XCTAssertEqual(ProfileNameCompletion.names(environment: environment), [], "a broken file completes nothing")
    }
}
