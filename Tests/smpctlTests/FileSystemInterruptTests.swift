import Foundation
import SMPSimulator
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `smpctl fs put` and `fs get` stopped by Ctrl-C (SIGINT) mid-transfer over slowed-down UDP (every
/// answer delayed), then the same command at full speed continues where the device's file or the
/// local `.part` file ends.
final class FileSystemInterruptTests: XCTestCase {
    /// Every answer waits 100 ms: the 300 KB file takes about 5 s (some 150 requests, 3 in flight).
    private static let slowUDP = FaultInjection(delay: 1, delayDuration: .milliseconds(100))

    private let content = FileSystemTestFolder.content(300_000, seed: 0xC7)

    /// Runs `arguments` (with `--json`), sends SIGINT at 25 %, and returns the error document and
    /// the offset it names.
    private func interrupt(_ arguments: [String], verb: String, file: StaticString = #filePath, line: UInt = #line) async throws -> (JSONNode, Int) {
        let process = try BackgroundProcess(smpctl: arguments)
        addTeardownBlock { process.stop() }
        let report = await process.waitForLine(timeout: 60) { text in
            let event = JSONNode((try? JSONSerialization.jsonObject(with: Data(text.utf8))) as Any)
            return (event["acknowledged"]?.int ?? 0) * 4 >= (event["total"]?.int ?? .max)
        }
        XCTAssertNotNil(report, "no progress report of 25 %\n\(process.stdout)\n\(process.stderr)", file: file, line: line)
        XCTAssertTrue(process.isRunning, "the transfer ended before the signal: slow it down", file: file, line: line)
        process.send(SIGINT)
        let status = await process.waitForExit(timeout: 15)
        XCTAssertEqual(status, 130, "\(process.stderr)", file: file, line: line)
        let error = try XCTUnwrap(try UploadOutput(stdout: process.stdout, context: process.stderr).error, process.stdout, file: file, line: line)
        XCTAssertEqual(error["name"]?.string, "interrupted", file: file, line: line)
        let message = try XCTUnwrap(error["message"]?.string, file: file, line: line)
        let match = try XCTUnwrap(message.firstMatch(of: #/interrupted at (\d+) of (\d+) bytes/#), message, file: file, line: line)
        XCTAssertTrue(message.hasPrefix("\(verb) interrupted"), message, file: file, line: line)
        XCTAssertEqual(Int(match.2), content.count, file: file, line: line)
        return (error, try XCTUnwrap(Int(match.1), file: file, line: line))
    }

    func testCtrlCDuringPutThenTheSameCommandContinues() async throws {
        let served = try await startDevice(.fileSystemDevice(), faults: Self.slowUDP)
        let local = try FileSystemTestFolder(self).write("big.bin", content)
        let arguments = ["fs", "put", local, "/lfs1/big.bin", "-c", served.endpoint, "--json"]
        let (error, offset) = try await interrupt(arguments, verb: "put")
        XCTAssertGreaterThan(offset, 0)
        XCTAssertEqual(error["hint"]?.string, "the same command continues it: smpctl fs put \(local) /lfs1/big.bin -c \(served.endpoint)")

        await served.device.setFaultInjection(.none)
        let run = try await SMPCtl.run(arguments + ["--verify"])
        assertExit(run, 0)
        let done = try XCTUnwrap(try UploadOutput(run).done, "\(run)")
        XCTAssertGreaterThanOrEqual(done["resumedFrom"]?.int ?? 0, offset, "\(done)")
        let stored = await served.device.file("/lfs1/big.bin")
        XCTAssertEqual(stored, content)
    }

    func testCtrlCDuringGetLeavesAPartThatTheSameCommandContinues() async throws {
        let served = try await startDevice(.fileSystemDevice(files: ["/lfs1/big.bin": content]), faults: Self.slowUDP)
        let folder = try FileSystemTestFolder(self)
        let target = (folder.path as NSString).appendingPathComponent("big.bin")
        let arguments = ["fs", "get", "/lfs1/big.bin", target, "-c", served.endpoint, "--json"]
        let (_, offset) = try await interrupt(arguments, verb: "get")
        let part = try XCTUnwrap(folder.read("big.bin.part"), "the part stays")
        XCTAssertGreaterThan(part.count, 0)
        XCTAssertEqual(part, Array(content.prefix(part.count)), "the part is a prefix of the file, without holes")
        XCTAssertLessThanOrEqual(part.count, offset + 2 * 2048, "nothing far beyond what was reported")

        await served.device.setFaultInjection(.none)
        let run = try await SMPCtl.run(arguments + ["--verify"])
        assertExit(run, 0)
        let done = try XCTUnwrap(try UploadOutput(run).done, "\(run)")
        XCTAssertEqual(done["resumedFrom"]?.int, part.count, "\(done)")
        XCTAssertEqual(folder.read("big.bin"), content)
        XCTAssertNil(folder.read("big.bin.part"))
    }
}
