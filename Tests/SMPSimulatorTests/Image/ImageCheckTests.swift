import CBOR
import SMP
import SMPSimulator
import XCTest

/// IMG_ENABLE_IMAGE_CHECK on the first chunk (docs/protocol/images.md §4.3 step 12): a slot that already holds the file
/// answers at once.
final class ImageCheckTests: XCTestCase {
    private let file = ImageTestDevice.file(2, hash: 0x22, body: 300)

    private func firstChunk(sha: [UInt8]) -> CBORMap {
        ["len": .integer(file.count), "off": 0, "sha": .bytes(sha), "data": .bytes(Array(file[0..<64]))]
    }

    func testResendingTheFirstChunkOfACompletedUploadAnswersDone() async throws {
        let device = ImageTestDevice()
        let sha = SHA256Hash.digest(file)
        _ = try await device.upload(file, sha: sha)
        let answer = try await device.send(.write, 1, firstChunk(sha: sha))
        XCTAssertEqual(answer, ["off": .integer(file.count), "match": true])
        let group = try await device.group()
        XCTAssertEqual(group.contents(image: 0, slot: 1), file, "nothing written")
        let next = try await device.send(.write, 1, ["off": 64, "data": .bytes(Array(file[64..<128]))])
        XCTAssertEqual(next, ["off": 0], "the upload is complete: no upload in progress")
    }

    func testAnotherSHAUploadsNormally() async throws {
        let device = ImageTestDevice()
        _ = try await device.upload(file, sha: SHA256Hash.digest(file))
        let answer = try await device.send(.write, 1, firstChunk(sha: ImageTestDevice.hash32(0x01)))
        XCTAssertEqual(answer, ["off": 64])
        let group = try await device.group()
        XCTAssertEqual(group.contents(image: 0, slot: 1), Array(file[0..<64]), "a new upload started")
    }

    func testAShortSHAOrAnotherLengthUploadsNormally() async throws {
        let device = ImageTestDevice()
        let sha = SHA256Hash.digest(file)
        _ = try await device.upload(file, sha: sha)
        var truncated = firstChunk(sha: Array(sha.prefix(16)))
        let short = try await device.send(.write, 1, truncated)
        XCTAssertEqual(short, ["off": 64], "a truncated sha is no image check")
        _ = try await device.upload(file, sha: sha)
        truncated = firstChunk(sha: sha)
        truncated["len"] = .integer(file.count + 1)
        let longer = try await device.send(.write, 1, truncated)
        XCTAssertEqual(longer, ["off": 64])
    }

    func testTheImageCheckCostsNoFlashTime() async throws {
        let timing = SimulatedFlashTiming(eraseBytesPerSecond: 4096, writeBytesPerSecond: 1024)
        let clock = ManualUptime()
        let device = ImageTestDevice(images: SimulatedImageConfiguration(slotSize: 4096, flashTiming: timing), uptime: clock)
        let sha = SHA256Hash.digest(file)
        _ = try await device.upload(file, sha: sha)
        clock.advance(by: .seconds(60))
        let deliveries = await device.device.deliveries(for: TestFrames.request(.write, group: .image, command: 1, payload: firstChunk(sha: sha)))
        XCTAssertEqual(deliveries.map(\.delay), [.zero])
    }
}
