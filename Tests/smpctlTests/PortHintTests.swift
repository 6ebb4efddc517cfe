import Foundation
import SMPTestSupport
import SMPSimulator
import XCTest

/// Hints about a serial port that are true (issue 13, item 9): permission advice from the node's
/// real owner, group and mode, and another process holding the port named — through real
/// pseudo-terminals and a real second process.
final class PortHintTests: XCTestCase {
    /// A pseudo-terminal pair; the master stays open (nothing answers on it) until the test ends.
    private func makeTerminal() throws -> String {
        var master: Int32 = -1
        var slave: Int32 = -1
        guard openpty(&master, &slave, nil, nil, nil) == 0 else {
            try ExternalTool.unavailable("no pseudo-terminals here: openpty failed with errno \(errno)")
        }
        let path = String(cString: ttyname(slave))
        close(slave)
        addTeardownBlock { close(master) }
        return path
    }

    /// Runs smpctl as user `nobody` when the tests run as root (root opens any node), else as ourselves.
    private func runUnprivileged(_ arguments: [String]) async throws -> ProcessRunner.Result {
        let executable = try SMPCtl.executable()
        let (program, words) = geteuid() == 0
            ? ("setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups", executable] + arguments)
            : (executable, arguments)
        let result: Result<ProcessRunner.Result, any Error> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: Result { try ProcessRunner.run(program, words, environment: ["SMPCTL_CONNECTION": ""], timeout: 30) })
            }
        }
        return try result.get()
    }

    func testPermissionAdviceFollowsTheNodesOwnerGroupAndMode() async throws {
        let path = try makeTerminal()
        let arguments = ["-c", "serial:\(path)", "--timeout", "0.5", "os", "echo", "hi"]
        if geteuid() == 0 {
            XCTAssertEqual(chown(path, 0, 0), 0)
            XCTAssertEqual(chmod(path, 0o600), 0)
            let rootOnly = try await runUnprivileged(arguments)
            XCTAssertEqual(rootOnly.status, 69, rootOnly.stderr)
            XCTAssertTrue(rootOnly.stderr.contains("serial:\(path): permission denied (crw------- root:root)"), rootOnly.stderr)
            XCTAssertTrue(rootOnly.stderr.contains("udev/60-smpctl.rules") && rootOnly.stderr.contains("uaccess"), rootOnly.stderr)
            XCTAssertFalse(rootOnly.stderr.contains("usermod"), "never \"join group root\": \(rootOnly.stderr)")

            let dialout = try XCTUnwrap(getgrnam("dialout"), "the dialout group exists on Debian").pointee.gr_gid
            XCTAssertEqual(chown(path, 0, dialout), 0)
            XCTAssertEqual(chmod(path, 0o660), 0)
            let group = try await runUnprivileged(arguments)
            XCTAssertEqual(group.status, 69, group.stderr)
            XCTAssertTrue(group.stderr.contains("permission denied (crw-rw---- root:dialout)"), group.stderr)
            XCTAssertTrue(group.stderr.contains("sudo usermod -aG dialout $USER"), group.stderr)
        } else {
            XCTAssertEqual(chmod(path, 0), 0)
            let own = try await runUnprivileged(arguments)
            XCTAssertEqual(own.status, 69, own.stderr)
            XCTAssertTrue(own.stderr.contains("chmod u+rw \(path)"), own.stderr)
            XCTAssertFalse(own.stderr.contains("usermod"), own.stderr)
        }
    }

    func testAnotherProcessHoldingThePortIsNamed() async throws {
        let path = try makeTerminal()
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/bin/cat")
        holder.arguments = [path]
        holder.standardOutput = FileHandle.nullDevice
        try holder.run()
        addTeardownBlock {
            // SIGKILL: a child started from the test process inherits its blocked SIGTERM.
            kill(holder.processIdentifier, SIGKILL)
            holder.waitUntilExit()
        }
        // Wait until cat has the port open.
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, !((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(holder.processIdentifier)/fd")) ?? [])
            .contains(where: { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(holder.processIdentifier)/fd/\($0)")) == path }) {
            try await Task.sleep(for: .milliseconds(20))
        }
        let run = try await SMPCtl.run(["-c", "serial:\(path)", "--timeout", "0.5", "--retries", "0", "os", "echo", "hi"])
        assertExit(run, 75)
        let named = "cat (pid \(holder.processIdentifier))"
        assertStderr(run, contains: "\(path) is also open in \(named)", "hint: \(named) also has \(path) open")
    }

    /// socat bridging a pseudo-terminal to the device holds the terminal's master side (and its
    /// slave too): the normal setup of a bridge, not a rival reader. Nothing is said about it:
    /// the command prints its answer and nothing else.
    func testABridgeHoldingThePseudoTerminalIsNotNamed() async throws {
        let socat = try FixtureTools.require("socat", package: "socat")
        let served = try await startSerialDevice()
        let scratch = try FixtureScratch.makeFolder("bridge")
        addTeardownBlock { try? FileManager.default.removeItem(at: scratch) }
        let bridge = scratch.appendingPathComponent("tty").path
        let process = try FixtureProcess(
            name: "socat", executable: socat, arguments: ["pty,raw,echo=0,link=\(bridge)", "file:\(served.linkPath),raw,echo=0"],
            workingDirectory: scratch, logURL: scratch.appendingPathComponent("socat.log"))
        addTeardownBlock { process.stop(grace: 0) }
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: bridge) && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        let run = try await SMPCtl.run(["-c", "serial:\(bridge)", "os", "echo", "hi"])
        assertExit(run, 0)
        XCTAssertEqual(run.stdout, "hi\n")
        XCTAssertEqual(run.stderr, "", "nothing about socat holding the terminal")
    }

    /// A port that never answered (here a device on MCUboot's raw framing, asked in console
    /// lines) is not "too fast": no note about writing more slowly, only the timeout and its hint.
    func testAPortThatNeverAnsweredIsNotSlowedDown() async throws {
        var options = PTYSimulatorOptions()
        options.framing = .raw
        let served = try await startSerialDevice(options: options)
        let run = try await SMPCtl.run(["-c", served.connection, "--timeout", "0.3", "os", "echo", "hi"])
        assertExit(run, 75)
        let lines = run.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 2, run.stderr)
        XCTAssertTrue(lines.first?.hasPrefix("error: os echo") == true, run.stderr)
        XCTAssertTrue(lines.last?.hasPrefix("hint: nothing at all came back from \(served.linkPath)") == true, run.stderr)
    }
}
