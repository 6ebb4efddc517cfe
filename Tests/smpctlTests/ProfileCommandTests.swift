import Foundation
import XCTest

/// `smpctl profile add|list|show|remove` and `-p`/`SMPCTL_PROFILE` on a real device command, each
/// test with its own `XDG_CONFIG_HOME`.
final class ProfileCommandTests: XCTestCase {
    /// A fresh config home, and the environment that selects it.
    private func configHome() throws -> (file: String, environment: [String: String]) {
        let folder = try FileSystemTestFolder(self)
        return ((folder.path as NSString).appendingPathComponent("smpctl/config.yaml"), ["SMPCTL_CONFIG": "", "XDG_CONFIG_HOME": folder.path])
    }

    func testAddListShowRemoveKeepTheOtherProfiles() async throws {
        let (file, environment) = try configHome()
        let empty = try await SMPCtl.run(["profile", "list"], environment: environment)
        assertSuccess(empty)
        XCTAssertTrue(empty.stdout.contains("no profiles in \(file) (no such file yet)"), empty.stdout)

        assertSuccess(try await SMPCtl.run(
            ["profile", "add", "lab", "-c", "serial:/dev/ttyACM0", "--baud", "1000000", "--timeout", "5", "--window", "8"], environment: environment))
        let added = try await SMPCtl.run(["profile", "add", "bench", "-c", "udp:127.0.0.1:1337", "--retries", "4", "--json"], environment: environment)
        assertSuccess(added)
        XCTAssertEqual(try added.jsonDocument()["settings"]?["retries"]?.int, 4, added.stdout)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        XCTAssertTrue(text.contains("  lab:\n    connection: serial:/dev/ttyACM0\n    timeout: 5\n    baud: 1000000\n    window: 8\n"), text)

        let list = try await SMPCtl.run(["profile", "list"], environment: environment)
        assertSuccess(list)
        XCTAssertTrue(list.stdout.contains("bench  udp:127.0.0.1:1337   retries=4"), list.stdout)
        XCTAssertTrue(list.stdout.contains("lab    serial:/dev/ttyACM0  timeout=5 baud=1000000 window=8"), list.stdout)
        let listed = try await SMPCtl.run(["profile", "list", "--json"], environment: environment)
        XCTAssertEqual(try listed.jsonDocument()["profiles"]?.array?.compactMap { $0["name"]?.string }, ["bench", "lab"])

        let show = try await SMPCtl.run(["profile", "show", "lab", "--json"], environment: environment)
        assertSuccess(show)
        let shown = try show.jsonDocument()
        XCTAssertEqual(shown["uses"]?["connection"]?.string, "serial:/dev/ttyACM0?timeout=5&retries=2&baud=1000000", show.stdout)
        XCTAssertEqual(shown["uses"]?["window"]?.int, 8)

        let again = try await SMPCtl.run(["profile", "add", "lab", "-c", "udp:127.0.0.1"], environment: environment)
        assertExit(again, 64)
        assertStderr(again, contains: "profile \"lab\" already exists", "--replace")
        assertSuccess(try await SMPCtl.run(["profile", "add", "lab", "-c", "udp:127.0.0.1", "--replace"], environment: environment))

        assertSuccess(try await SMPCtl.run(["profile", "remove", "bench"], environment: environment))
        let gone = try await SMPCtl.run(["profile", "remove", "bench", "--json"], environment: environment)
        try assertErrorDocument(gone, name: "usage-error", code: 64, messageContains: ["no profile \"bench\" in \(file)"])
        assertStderr(gone, contains: "hint: the profiles are: lab")
        let left = try await SMPCtl.run(["profile", "show", "lab"], environment: environment)
        XCTAssertTrue(left.stdout.contains("  connection: udp:127.0.0.1\n"), left.stdout)
    }

    func testAddRefusesWhatTheDeviceCommandsWouldRefuse() async throws {
        let (file, environment) = try configHome()
        let cases: [([String], String)] = [
            (["profile", "add", "a/b", "-c", "udp:127.0.0.1"], "profile name \"a/b\": not allowed"),
            (["profile", "add", "lab", "-c", "udp:127.0.0.1", "--baud", "9600"], "udp connections do not take \"baud\""),
            (["profile", "add", "lab", "-c", "serial:/dev/ttyACM0", "--timeout", "0"], "--timeout takes a number of seconds greater than 0 and at most 3600, not 0"),
            (["profile", "add", "lab", "-c", "serial:/dev/ttyACM0", "--window", "-1"], "--window takes a whole number of requests in flight from 1 to 64, not -1"),
            (["profile", "add", "lab", "-c", "tcp:x"], "invalid connection string"),
        ]
        for (arguments, message) in cases {
            let run = try await SMPCtl.run(arguments, environment: environment)
            assertExit(run, 64)
            assertStderr(run, contains: message)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: file), "nothing written")
    }

    func testAProfileReachesTheDeviceAndTheCommandLineStillWins() async throws {
        let served = try await startDevice()
        let (file, environment) = try configHome()
        assertSuccess(try await SMPCtl.run(["profile", "add", "sim", "-c", served.endpoint, "--timeout", "2"], environment: environment))

        let viaOption = try await SMPCtl.run(["-p", "sim", "os", "echo", "hi"], environment: environment)
        assertSuccess(viaOption)
        XCTAssertEqual(viaOption.stdout, "hi\n")
        let viaVariable = try await SMPCtl.run(["os", "echo", "env"], environment: environment.merging(["SMPCTL_PROFILE": "sim"]) { $1 })
        XCTAssertEqual(viaVariable.stdout, "env\n", "\(viaVariable)")
        // -p beats SMPCTL_CONNECTION (a command-line choice); -c beats the profile.
        let overEnvironment = try await SMPCtl.run(
            ["os", "echo", "p", "--profile", "sim"], environment: environment.merging(["SMPCTL_CONNECTION": "tcp:x"]) { $1 })
        XCTAssertEqual(overEnvironment.stdout, "p\n", "\(overEnvironment)")
        let nobody = "udp:127.0.0.1:\(try SilentUDPSocket.unusedPort())"
        let overridden = try await SMPCtl.run(["os", "echo", "x", "-p", "sim", "-c", nobody], environment: environment)
        assertExit(overridden, 69)
        assertStderr(overridden, contains: "error: \(nobody): nothing is listening there")

        let unknown = try await SMPCtl.run(["os", "echo", "x", "-p", "sim2"], environment: environment)
        assertExit(unknown, 64)
        assertStderr(unknown, contains: "error: no profile \"sim2\" (-p) in \(file)", "hint: the profiles are: sim")

        try Data("profiles:\n  sim:\n    connection: \(served.endpoint)\n    timeout: soon\n".utf8).write(to: URL(fileURLWithPath: file))
        let broken = try await SMPCtl.run(["os", "echo", "x", "-c", served.endpoint, "--json"], environment: environment)
        try assertErrorDocument(broken, name: "data-error", code: 65, messageContains: ["\(file):4: profiles.sim.timeout: timeout: soon: expected seconds"])
    }

    /// `profile add`s and `profile remove`s started at once on one file lose nothing: each one
    /// changes what the others wrote (the file is locked from reading to writing), and of two
    /// changes to one name, exactly one is made. 20 rounds, each on a fresh file: 8 adds at once
    /// (two of them of the same name), then 5 removes at once (two of them of the same name).
    func testProfileChangesStartedAtOnceLoseNothing() async throws {
        let folder = try FileSystemTestFolder(self)
        let names = (1...6).map { "board\($0)" }
        for round in 1...20 {
            let environment = ["SMPCTL_CONFIG": (folder.path as NSString).appendingPathComponent("round\(round).yaml")]
            let adds = try await runAtOnce(
                names.enumerated().map { ["profile", "add", $1, "-c", "udp:127.0.0.\($0 + 1)"] }
                    + Array(repeating: ["profile", "add", "shared", "-c", "udp:127.0.1.1"], count: 2),
                environment: environment)
            XCTAssertEqual(adds.prefix(names.count).map(\.status), Array(repeating: 0, count: names.count), "round \(round): \(adds)")
            assertOneOf(adds.suffix(2), failsWith: "profile \"shared\" already exists", round: round)
            let added = try await profileNames(environment)
            guard added == names + ["shared"] else { return XCTFail("round \(round): a profile was lost: \(added)") }

            let removed = ["board1", "board3", "board5"]
            let removes = try await runAtOnce((removed + ["shared", "shared"]).map { ["profile", "remove", $0] }, environment: environment)
            XCTAssertEqual(removes.prefix(removed.count).map(\.status), [0, 0, 0], "round \(round): \(removes)")
            assertOneOf(removes.suffix(2), failsWith: "no profile \"shared\"", round: round)
            let left = try await profileNames(environment)
            guard left == ["board2", "board4", "board6"] else { return XCTFail("round \(round): a removed profile came back: \(left)") }
        }
    }

    /// Starts one `smpctl` per argument list, every one before waiting for any; their exit statuses and standard errors.
    private func runAtOnce(_ runs: [[String]], environment: [String: String]) async throws -> [(status: Int32?, stderr: String)] {
        let processes = try runs.map { try BackgroundProcess(smpctl: $0, environment: environment) }
        var outcomes: [(status: Int32?, stderr: String)] = []
        for process in processes { outcomes.append((await process.waitForExit(timeout: 60), process.stderr)) }
        return outcomes
    }

    /// Asserts that of two changes to one name, one succeeded and the other failed with a usage error saying `message`.
    private func assertOneOf(
        _ pair: ArraySlice<(status: Int32?, stderr: String)>, failsWith message: String, round: Int, line: UInt = #line
    ) {
        XCTAssertEqual(pair.map(\.status).sorted { ($0 ?? -1) < ($1 ?? -1) }, [0, 64], "round \(round): \(pair)", line: line)
        XCTAssertEqual(pair.filter { $0.stderr.contains(message) }.count, 1, "round \(round): \(pair)", line: line)
    }

    /// The profiles `profile list --json` lists.
    private func profileNames(_ environment: [String: String]) async throws -> [String] {
        let list = try await SMPCtl.run(["profile", "list", "--json"], environment: environment)
        assertSuccess(list)
        return try list.jsonDocument()["profiles"]?.array?.compactMap { $0["name"]?.string } ?? []
    }
}
