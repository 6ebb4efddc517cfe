import Foundation
import SMP
import SMPSimulator
import XCTest

/// `smpctl image upload` against `smpctl simulate --write-alignment`: a device that stores whole
/// flash units and acknowledges the aligned offset, as MCUboot's serial recovery does.
final class AlignedUploadCommandTests: XCTestCase {

    func testAnUploadLearnsTheWriteUnitAndSendsNothingTwiceAfterwards() async throws {
        // About 120 chunks: far more answers short of their chunk's end than the stall limit.
        let file = SimulatedImageHeader.soundImageFile(
            version: (4, 0, 1, 0), body: (0..<120_001).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
        let imageHash = Array(file.suffix(32))
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("smpctl-aligned-\(UUID().uuidString).bin")
        try Data(file).write(to: url)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        let (_, endpoint) = try await startSimulateProcess(["--write-alignment", "8", "--buf-size", "1024", "--slot-size", "262144"])

        let run = try await SMPCtl.run(["image", "upload", url.path, "-c", endpoint, "--json"])
        assertSuccess(run)
        let events = try run.stdout.split(separator: "\n").map {
            try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], String($0))
        }
        let done = try XCTUnwrap(events.last)
        XCTAssertEqual(done["match"] as? Bool, true, run.stdout)
        XCTAssertTrue(done["resumedFrom"] is NSNull, "a partly stored first chunk is not a resume")
        let unit = try XCTUnwrap(done["learnedAlignment"] as? Int, run.stdout)
        XCTAssertEqual(unit % 8, 0, "a multiple of the device's write unit: \(unit)")
        // Only the first chunk's tail (less than one unit) is sent twice; every later chunk ends
        // on the unit and is stored whole.
        let bytesSent = try XCTUnwrap(done["bytesSent"] as? Int)
        XCTAssertGreaterThanOrEqual(bytesSent, file.count)
        XCTAssertLessThan(bytesSent, file.count + 8, run.stdout)
        let chunks = try XCTUnwrap(done["chunks"] as? Int)
        XCTAssertLessThan(chunks, file.count / 900 + 2, "chunks near the 1024-byte buffer: \(chunks)")
        let progress = events.dropLast().compactMap { $0["bytesSent"] as? Int }
        let acknowledged = events.dropLast().compactMap { $0["acknowledged"] as? Int }
        XCTAssertEqual(progress.count, acknowledged.count)
        XCTAssertTrue(zip(progress, acknowledged).allSatisfy { $0 >= $1 }, "never more acknowledged than sent")

        let text = try await SMPCtl.run(["image", "upload", url.path, "-c", endpoint, "--restart"])
        assertExit(text, 0)
        XCTAssertTrue(text.stdout.contains("the device stores whole \(unit)-byte units (learned from its answers)"), text.stdout)

        let list = try await SMPCtl.run(["image", "list", "-c", endpoint, "--json"])
        assertSuccess(list)
        let slot = try XCTUnwrap(try list.jsonDocument()["images"]?.array?.first { $0["slot"]?.int == 1 }, list.stdout)
        XCTAssertEqual(slot["imageHash"]?.string, Hex.string(imageHash), "the slot holds the whole image")
        XCTAssertEqual(slot["version"]?.string, "4.0.1", list.stdout)
    }

    func testAWriteAlignmentOutOfRangeIsAUsageError() async throws {
        for value in ["0", "4097", "x"] {
            let run = try await SMPCtl.run(["simulate", "--write-alignment", value], timeout: 10)
            assertExit(run, 64)
        }
        let run = try await SMPCtl.run(["simulate", "--write-alignment", "0"], timeout: 10)
        assertStderr(run, contains: "--write-alignment takes a whole number of bytes from 1 to 4096, not 0")
    }
}
