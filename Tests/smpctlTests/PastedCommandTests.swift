import Foundation
import SMP
import SMPSimulator
import SMPTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The commands smpctl prints for a person to run next ("the same command continues it: …",
/// "next: …") run when pasted: each test takes the printed line as it is and runs it through
/// `/bin/sh -c`, with smpctl on PATH, in another environment than the one that printed it.
final class PastedCommandTests: XCTestCase {
    /// Runs `line` as a shell would, with the built smpctl first on PATH and `environment`
    /// (which clears every SMPCTL_ variable of the run that printed it).
    private func paste(_ line: String, environment: [String: String]) throws -> ProcessRunner.Result {
        let folder = (try SMPCtl.executable() as NSString).deletingLastPathComponent
        let path = folder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return try ProcessRunner.run("/bin/sh", ["-c", line], environment: SMPCtl.isolated.merging(environment) { $1 }.merging(["PATH": path]) { $1 }, timeout: 30)
    }

    /// An `fs put` through a profile, with `--timeout` on the command line and the profile's
    /// window, is interrupted; the printed command names the profile and the timeout, and
    /// finishes the transfer when pasted.
    func testTheContinueLineOfAnInterruptedTransferNamesTheProfileAndRuns() async throws {
        let served = try await startDevice(.fileSystemDevice(), faults: FaultInjection(delay: 1, delayDuration: .milliseconds(100)))
        let folder = try FileSystemTestFolder(self)
        let config = ["SMPCTL_CONFIG": "", "XDG_CONFIG_HOME": folder.path]
        assertSuccess(try await SMPCtl.run(["profile", "add", "sim", "-c", served.endpoint, "--window", "2"], environment: config))
        let content = FileSystemTestFolder.content(200_000, seed: 0x9A57E)
        let local = try folder.write("my file.bin", content)

        let process = try BackgroundProcess(
            smpctl: ["fs", "put", local, "/lfs1/big.bin", "-p", "sim", "--timeout", "5", "--json"], environment: config)
        addTeardownBlock { process.stop() }
        let report = await process.waitForLine(timeout: 60) { text in
            let event = JSONNode((try? JSONSerialization.jsonObject(with: Data(text.utf8))) as Any)
            return (event["acknowledged"]?.int ?? 0) * 4 >= (event["total"]?.int ?? .max)
        }
        XCTAssertNotNil(report, "no progress report of 25 %\n\(process.stdout)\n\(process.stderr)")
        process.send(SIGINT)
        let status = await process.waitForExit(timeout: 15)
        XCTAssertEqual(status, 130, process.stderr)
        let error = try XCTUnwrap(try UploadOutput(stdout: process.stdout, context: process.stderr).error, process.stdout)
        let hint = try XCTUnwrap(error["hint"]?.string, "\(error)")
        let prefix = "the same command continues it: "
        XCTAssertEqual(hint, prefix + "smpctl fs put '\(local)' /lfs1/big.bin -p sim --timeout 5")

        await served.device.setFaultInjection(.none)
        let pasted = try paste(String(hint.dropFirst(prefix.count)), environment: config)
        XCTAssertEqual(pasted.status, 0, "\(pasted.stdout)\n\(pasted.stderr)")
        XCTAssertTrue(pasted.stdout.contains("resumed from"), pasted.stdout)
        let stored = await served.device.file("/lfs1/big.bin")
        XCTAssertEqual(stored, content)
    }

    /// An upload whose device and timeout came from the environment prints "next:" commands
    /// that carry both, so they run in a shell without those variables.
    func testTheNextLinesOfAnUploadCarryWhatTheEnvironmentGave() async throws {
        let served = try await startDevice(.udpImageDevice)
        let image = SimulatedImageHeader.soundImageFile(version: (3, 1, 0, 0), body: (0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        let folder = try FileSystemTestFolder(self)
        let file = try folder.write("app.signed.bin", image)
        let run = try await SMPCtl.run(
            ["image", "upload", file], environment: ["SMPCTL_CONNECTION": served.endpoint, "SMPCTL_TIMEOUT": "4", "SMPCTL_RETRIES": "3"])
        assertExit(run, 0)
        let hash = Hex.string(Array(image.suffix(32)))
        let next = try XCTUnwrap(run.stdout.split(separator: "\n").first { $0.hasPrefix("next: ") }, run.stdout)
        let options = "-c \(served.endpoint) --timeout 4 --retries 3"
        XCTAssertEqual(next, "next: smpctl image test \(hash) \(options), then smpctl os reset \(options)")

        let test = try XCTUnwrap(next.firstMatch(of: #/^next: (.+), then /#)).1
        let pasted = try paste(String(test), environment: ["XDG_CONFIG_HOME": folder.path])
        XCTAssertEqual(pasted.status, 0, "\(pasted.stdout)\n\(pasted.stderr)")
        let list = try await SMPCtl.run(["image", "list", "-c", served.endpoint, "--json"])
        XCTAssertEqual(try list.jsonDocument()["images"]?[1]?["pending"]?.bool, true, "the pasted command marked the image for test\n\(list)")
    }
}
