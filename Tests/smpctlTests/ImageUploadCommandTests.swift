import CBOR
import Foundation
import SMP
import SMPSimulator
import XCTest

/// `smpctl image upload` end to end over UDP against the virtual device's image group.
final class ImageUploadCommandTests: XCTestCase {
    /// The SHA-256 TLV of ``imageFile`` (its last 32 bytes): the hash of its header and body.
    private var imageHash: [UInt8] { Array(imageFile.suffix(32)) }

    private var imageFile: [UInt8] {
        let body = (0..<60_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }
        return SimulatedImageHeader.soundImageFile(version: (3, 1, 0, 0), body: body)
    }

    private var imageDevice: VirtualDeviceConfiguration {
        var configuration = VirtualDeviceConfiguration.zephyrForTests
        configuration.images = SimulatedImageConfiguration(slotSize: 128 * 1024)
        return configuration
    }

    private func writeImage(_ bytes: [UInt8]) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("smpctl-upload-\(UUID().uuidString).bin")
        try Data(bytes).write(to: url)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url.path
    }

    func testJSONUploadPrintsProgressEventsAndTheResult() async throws {
        let served = try await startDevice(imageDevice)
        let path = try writeImage(imageFile)
        let run = try await SMPCtl.run(["image", "upload", path, "-c", served.endpoint, "--json", "--window", "2"])
        assertSuccess(run)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        XCTAssertGreaterThan(lines.count, 2, run.stdout)
        let documents = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let events = documents.compactMap { $0 }
        XCTAssertEqual(events.count, lines.count, "every line is one JSON object")
        XCTAssertTrue(events.dropLast().allSatisfy { $0["event"] as? String == "progress" }, run.stdout)
        let done = try XCTUnwrap(events.last)
        XCTAssertEqual(done["event"] as? String, "done")
        XCTAssertEqual(done["size"] as? Int, imageFile.count)
        XCTAssertEqual(done["match"] as? Bool, true)
        XCTAssertEqual(done["window"] as? Int, 2)
        XCTAssertEqual(done["imageHash"] as? String, Hex.string(imageHash))
        XCTAssertEqual(done["sha256"] as? String, Hex.string(SHA256Hash.digest(imageFile)))
        XCTAssertTrue(done["resumedFrom"] is NSNull)

        let list = try await SMPCtl.run(["image", "list", "-v", "-c", served.endpoint])
        XCTAssertTrue(list.stdout.contains(Hex.string(imageHash)), list.stdout)
        XCTAssertTrue(list.stdout.contains("3.1.0"), list.stdout)
    }

    func testTextUploadResumesFromTheDevicesOffset() async throws {
        let served = try await startDevice(imageDevice)
        let file = imageFile
        let path = try writeImage(file)
        // An interrupted upload of the same file: first chunk with len and sha, then one more.
        let first = ImageUploadChunk(offset: 0, data: Array(file[0..<1000]), length: UInt64(file.count), sha: SHA256Hash.digest(file))
        let second = ImageUploadChunk(offset: 1000, data: Array(file[1000..<2000]))
        for (sequence, chunk) in [first, second].enumerated() {
            let header = SMPHeader(operation: .write, length: 0, group: .image, sequence: UInt8(sequence), command: ImageCommandID.upload)
            let answers = await served.device.handle(frame: SMPMessage(header: header, payload: chunk.request.payload).encoded())
            let answer = try SMPMessage(decoding: try XCTUnwrap(answers.first))
            XCTAssertEqual(try chunk.decodeResponse(answer.payload).offset, chunk.offset + UInt64(chunk.data.count))
        }
        let run = try await SMPCtl.run(["image", "upload", path, "-c", served.endpoint])
        assertExit(run, 0)
        XCTAssertTrue(run.stdout.contains("uploaded \(path): \(file.count) bytes"), run.stdout)
        XCTAssertTrue(run.stdout.contains("resumed from offset 2000"), run.stdout)
        XCTAssertTrue(run.stdout.contains("image hash \(Hex.string(imageHash)) (version 3.1.0+0)"), run.stdout)
        XCTAssertEqual(run.stderr, "", "into a pipe, an upload shorter than 10 s prints no progress: \(run.stderr)")

        let restarted = try await SMPCtl.run(["image", "upload", path, "-c", served.endpoint, "--restart", "--align", "8", "--json"])
        assertSuccess(restarted)
        let done = try XCTUnwrap(restarted.stdout.split(separator: "\n").last.map(String.init))
        XCTAssertTrue(done.contains("\"resumedFrom\":null"), done)
        XCTAssertTrue(done.contains("\"match\":true"), done)
    }

    func testAFileThatIsNotAnImageIsRefusedBeforeConnecting() async throws {
        let path = try writeImage([UInt8](repeating: 0x11, count: 100))
        let run = try await SMPCtl.run(["image", "upload", path, "-c", "udp:127.0.0.1:9"])
        assertExit(run, 65)
        assertStderr(run, contains: "not an MCUboot image")
    }
}
