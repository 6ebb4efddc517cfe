import Foundation
import SMPSimulator
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `smpctl image upload` stopped for real: the built binary runs as a child process and gets
/// SIGINT (Ctrl-C) or SIGKILL mid-upload, over UDP and over a pseudo-terminal; then the same
/// command runs again and resumes from the device's offset (or, with `--restart`, starts over).
///
/// The interrupted run is slowed down so that the signal always lands mid-upload (every UDP
/// answer delayed, or the serial line paced at a low baud rate), and the test waits for a progress
/// report (a quarter or half of the file acknowledged) rather than for a fixed time; the rerun
/// goes at full speed, except over the serial line that stays paced after SIGKILL.
final class ImageUploadInterruptTests: XCTestCase {
    /// How long smpctl may take to exit after the signal.
    private static let exitLimit: TimeInterval = 15

    /// Every UDP answer waits 200 ms: the 256 KiB image would take about 9 s (some 135 chunks, 3
    /// in flight).
    private static let slowUDP = FaultInjection(delay: 1, delayDuration: .milliseconds(200))

    /// 9600 baud: the 5.6 KB image takes about 8 s (base64 and framing add a third).
    private static let slowSerial = PTYSimulatorOptions(baudRate: 9600)

    // MARK: Ctrl-C

    func testCtrlCOverSerialNamesTheOffsetAndTheCommandThatResumesIt() async throws {
        let image = try UploadTestImages.signed()
        let bytes = try image.bytes()
        let served = try await startSerialDevice(options: Self.slowSerial)
        let arguments = ["image", "upload", image.file, "-c", served.connection]
        let upload = try await interruptedUpload(arguments, by: SIGINT, atPercent: 50, of: (served.device, bytes.count))
        XCTAssertEqual(upload.status, 130, "exit code of an interruption\n\(upload.process.stderr)")
        let offset = try interruptedOffset(in: upload.process.stderr, total: bytes.count)
        XCTAssertGreaterThan(offset, 0, "the device acknowledged chunks before the signal")
        let hint = try XCTUnwrap(
            upload.process.stderr.firstMatch(of: #/\nhint: the device keeps the partial upload; the same command resumes it: (.+)\n/#),
            "no resume hint\n\(upload.process.stderr)")
        XCTAssertEqual(String(hint.1), (["smpctl"] + arguments).joined(separator: " "))

        // The adapter is plugged in again, now at full speed; the command from the hint resumes.
        let replugged = try await serveAgain(served, options: PTYSimulatorOptions())
        let resume = hint.1.split(separator: " ").dropFirst().map(String.init) + ["--json"]
        let done = try await assertUploaded(try await SMPCtl.run(resume), bytes, to: replugged.device)
        assertResumed(done, from: offset)
    }

    func testCtrlCInJSONModeEndsWithAnErrorDocumentAndTheSameCommandResumes() async throws {
        let image = try UploadTestImages.padded()
        let bytes = try image.bytes()
        let served = try await startDevice(.udpImageDevice, faults: Self.slowUDP)
        let arguments = ["image", "upload", image.file, "-c", served.endpoint, "--json"]
        let upload = try await interruptedUpload(arguments, by: SIGINT, atPercent: 25)
        XCTAssertEqual(upload.status, 130, "exit code of an interruption\n\(upload.process.stderr)")
        let output = try UploadOutput(stdout: upload.process.stdout, context: upload.process.stderr)
        XCTAssertFalse(output.progress.isEmpty, "progress events come first")
        XCTAssertTrue(output.lines.dropLast().allSatisfy { $0["event"]?.string == "progress" }, upload.process.stdout)
        let error = try XCTUnwrap(output.error, "the last line is no error document\n\(upload.process.stdout)")
        XCTAssertEqual(error["name"]?.string, "interrupted")
        XCTAssertEqual(error["code"]?.int, 130)
        let message = try XCTUnwrap(error["message"]?.string)
        let offset = try interruptedOffset(in: message, total: bytes.count)
        XCTAssertGreaterThanOrEqual(offset, output.progress.last?["acknowledged"]?.int ?? .max, "the last progress event")
        XCTAssertEqual(
            error["hint"]?.string,
            "the device keeps the partial upload; the same command resumes it: smpctl image upload \(image.file) -c \(served.endpoint)")
        XCTAssertTrue(upload.process.stderr.contains("error: \(message)\n"), "the message also goes to standard error")

        await served.device.setFaultInjection(.none)
        let done = try await assertUploaded(try await SMPCtl.run(arguments), bytes, to: served.device)
        assertResumed(done, from: offset)
    }

    // MARK: SIGKILL

    func testSIGKILLOverUDPThenTheSameCommandResumes() async throws {
        let image = try UploadTestImages.padded()
        let served = try await startDevice(.udpImageDevice, faults: Self.slowUDP)
        let arguments = ["image", "upload", image.file, "-c", served.endpoint, "--json"]
        let upload = try await interruptedUpload(arguments, by: SIGKILL, atPercent: 25)
        XCTAssertTrue(upload.process.wasKilledBySignal, "status \(upload.status)")
        let acknowledged = try lastAcknowledged(upload.process)

        await served.device.setFaultInjection(.none)
        let done = try await assertUploaded(try await SMPCtl.run(arguments), try image.bytes(), to: served.device)
        assertResumed(done, from: acknowledged)
    }

    func testSIGKILLOverSerialThenTheSameCommandResumesOnTheSameLine() async throws {
        let image = try UploadTestImages.signed()
        // Still paced for the rerun, which reads the link while the device may still be
        // answering the requests of the killed process: 19200 baud keeps that short.
        let served = try await startSerialDevice(options: PTYSimulatorOptions(baudRate: 19_200))
        let arguments = ["image", "upload", image.file, "-c", served.connection, "--json"]
        let upload = try await interruptedUpload(arguments, by: SIGKILL, atPercent: 50)
        XCTAssertTrue(upload.process.wasKilledBySignal, "status \(upload.status)")
        let acknowledged = try lastAcknowledged(upload.process)

        let done = try await assertUploaded(try await SMPCtl.run(arguments, timeout: 60), try image.bytes(), to: served.device)
        assertResumed(done, from: acknowledged)
        let connections = await served.server.statistics.hostConnections
        XCTAssertEqual(connections, 2, "the killed upload and the rerun")
    }

    // MARK: --restart

    func testRestartAfterAnInterruptionStartsFromZero() async throws {
        let image = try UploadTestImages.padded()
        let bytes = try image.bytes()
        let served = try await startDevice(.udpImageDevice, faults: Self.slowUDP)
        let arguments = ["image", "upload", image.file, "-c", served.endpoint, "--json"]
        let upload = try await interruptedUpload(arguments, by: SIGINT, atPercent: 25)
        XCTAssertEqual(upload.status, 130, upload.process.stderr)
        XCTAssertGreaterThan(try lastAcknowledged(upload.process), 0)

        await served.device.setFaultInjection(.none)
        let done = try await assertUploaded(try await SMPCtl.run(arguments + ["--restart"]), bytes, to: served.device)
        XCTAssertTrue(done["resumedFrom"]?.isNull == true, "--restart does not resume: \(done)")
        XCTAssertGreaterThanOrEqual(done["bytesSent"]?.int ?? 0, bytes.count, "the whole file again: \(done)")
    }

    // MARK: Helpers

    /// Starts `smpctl` with `arguments` (an upload), waits until its progress reports show at least
    /// `percent` % acknowledged, sends `signal` and waits (bounded) for the exit.
    ///
    /// Far enough in, the rerun has to send clearly less than the file, even when it re-sends a
    /// window or two after a rewind.
    private func interruptedUpload(
        _ arguments: [String], by signal: Int32, atPercent percent: Int, of upload: (device: VirtualDevice, total: Int)? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) async throws -> (process: BackgroundProcess, status: Int32) {
        let process = try BackgroundProcess(smpctl: arguments)
        addTeardownBlock { process.stop() }
        // Text prints no progress into a pipe before 10 s: the device's secondary slot tells how far it got.
        let progress: String? = if let upload {
            await Self.wait(timeout: 60) { await upload.device.slotContents(1).count * 100 >= upload.total * percent } ? "\(percent) %" : nil
        } else {
            await process.waitForLine(timeout: 60) { Self.jsonPercent($0) >= percent }
        }
        let report = "\nstdout: \(process.stdout)\nstderr: \(process.stderr)"
        XCTAssertNotNil(progress, "no progress report of \(percent) %" + report, file: file, line: line)
        XCTAssertTrue(process.isRunning, "the upload ended before the signal: slow it down" + report, file: file, line: line)
        process.send(signal)
        let status = await process.waitForExit(timeout: Self.exitLimit)
        return (process, try XCTUnwrap(status, "smpctl still runs \(Self.exitLimit) s after signal \(signal)" + report, file: file, line: line))
    }

    /// The percentage of a JSON progress event; -1 for any other line.
    private static func jsonPercent(_ line: String) -> Int {
        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8))
        let event = JSONNode(object as Any)
        guard event["event"]?.string == "progress", let acknowledged = event["acknowledged"]?.int, let total = event["total"]?.int,
              total > 0
        else { return -1 }
        return acknowledged * 100 / total
    }

    /// Whether `condition` held within `timeout` seconds (polled; a bound against a hang, not a
    /// measurement).
    private static func wait(timeout: TimeInterval, until condition: () async -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// N of "upload interrupted at N of TOTAL bytes", checking TOTAL.
    private func interruptedOffset(in text: String, total: Int, file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        let match = try XCTUnwrap(
            text.firstMatch(of: #/upload interrupted at (\d+) of (\d+) bytes \(\d+%\)/#), "no offset in: \(text)", file: file, line: line)
        XCTAssertEqual(Int(match.2), total, "the file's size", file: file, line: line)
        return try XCTUnwrap(Int(match.1), file: file, line: line)
    }

    /// `acknowledged` of the last JSON progress event of a killed upload.
    private func lastAcknowledged(_ process: BackgroundProcess, file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        // A killed process may leave half a line behind.
        let complete = process.stdout.split(separator: "\n", omittingEmptySubsequences: true)
            .dropLast(process.stdout.hasSuffix("\n") ? 0 : 1).joined(separator: "\n")
        let output = try UploadOutput(stdout: complete, context: process.stderr, file: file, line: line)
        return try XCTUnwrap(output.progress.last?["acknowledged"]?.int, "no progress event\n\(process.stdout)", file: file, line: line)
    }

    /// Asserts that the rerun resumed at or after `offset` and sent less than the file.
    private func assertResumed(_ done: JSONNode, from offset: Int, file: StaticString = #filePath, line: UInt = #line) {
        let resumedFrom = done["resumedFrom"]?.int
        XCTAssertNotNil(resumedFrom, "the rerun did not resume: \(done)", file: file, line: line)
        XCTAssertGreaterThanOrEqual(resumedFrom ?? 0, max(1, offset), "the device keeps what it acknowledged: \(done)", file: file, line: line)
        let size = done["size"]?.int ?? 0
        XCTAssertLessThan(done["bytesSent"]?.int ?? .max, size, "a resumed upload sends less than the file: \(done)", file: file, line: line)
    }
}
