import ArgumentParser
import SMP
import SMPFleet
import SMPKit
import XCTest
@testable import smpctl

/// One device's output within a many-device run is kept as typed values: the documents, the text,
/// the notes and the failure are what the command handed over, never bytes read back.
final class DeviceOutputTests: XCTestCase {
    private func device() throws -> DeviceOutput {
        DeviceOutput(target: DeviceTarget(name: "rack-1", connection: try ConnectionString(parsing: "udp:127.0.0.1:14000")))
    }

    func testDocumentsAreKeptAsGivenInJSONMode() throws {
        let device = try device()
        let output = Output(json: true, device: device)
        output.emit(.object([("r", .uint(7))]), human: "not used")
        output.write(document: .object([("event", .string("progress"))]))
        XCTAssertEqual(device.documents.map { $0.serialized() }, ["{\"schemaVersion\":1,\"r\":7}", "{\"schemaVersion\":1,\"event\":\"progress\"}"])
    }

    /// Text mode keeps the result's document too: a many-device report carries each device's
    /// results (`output`) whether the run prints text or JSON.
    func testTextModeKeepsTheDocumentForTheReport() throws {
        let device = try device()
        Output(json: false, device: device).emit(.object([("r", .uint(7))]), human: "seven")
        XCTAssertEqual(device.documents.map { $0.serialized() }, ["{\"schemaVersion\":1,\"r\":7}"])
    }

    /// The failure keeps everything the command said: status, the whole multi-line hint and the
    /// device's own error (text read back from standard error lost all but the hint's first line).
    func testAReportedFailureIsKeptWhole() throws {
        let device = try device()
        let output = Output(json: true, device: device)
        let deviceError = SMPDeviceError.returnCode(.notSupported, group: 2, reason: nil)
        output.report(CLIError(.deviceError, "image list: not supported", hint: "first line\nsecond line", deviceError: deviceError))
        let failure = device.failure(exitingWith: ExitCode(ExitStatus.deviceError.rawValue))
        XCTAssertEqual(failure.message, "image list: not supported")
        XCTAssertEqual(failure.hint, "first line\nsecond line")
        XCTAssertEqual(failure.status, .deviceError)
        XCTAssertNotNil(failure.deviceError)
        // With --json the error document is among the device's documents, as it is on standard output for one device.
        XCTAssertEqual(device.documents.count, 1)
    }

    /// A partial result names each failed item; the last one stands for the device, with the
    /// exit status of the first.
    func testItemFailuresEndWithTheFirstStatusAndTheLastMessage() throws {
        let device = try device()
        let output = Output(json: false, device: device)
        let failures = [
            ItemFailure(item: "a", error: CLIError(.timeout, "no response")),
            ItemFailure(item: "b", error: CLIError(.deviceError, "too large", hint: "ask for less")),
        ]
        XCTAssertThrowsError(try ItemFailure.exit(after: failures, noun: "statistics group", output: output)) { error in
            XCTAssertEqual((error as? ExitCode)?.rawValue, ExitStatus.timeout.rawValue)
        }
        let failure = device.failure(exitingWith: ExitCode(ExitStatus.timeout.rawValue))
        XCTAssertEqual(failure.message, "statistics group b: too large")
        XCTAssertEqual(failure.hint, "ask for less")
        XCTAssertEqual(failure.status, .timeout)
        XCTAssertEqual(device.documents.count, 0, "an item's failure is in the result's document, not a document of its own")
    }

    func testAnExitWithoutAReportNamesTheStatus() throws {
        let failure = try device().failure(exitingWith: ExitCode(ExitStatus.timeout.rawValue))
        XCTAssertEqual(failure.message, "exited with status \(ExitStatus.timeout.rawValue)")
        XCTAssertEqual(failure.status, .timeout)
    }
}
