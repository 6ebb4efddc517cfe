import CBOR
import Foundation
import XCTest

@testable import SMP

/// ``ImageUpload``: a `match: false` uploads once more from offset 0 (a first chunk without `sha`
/// clears the device's state first), then fails loudly.
final class ImageUploadRetryTests: XCTestCase {
    private let file: [UInt8] = [0x3D, 0xB8, 0xF3, 0x96] + (0..<6_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }

    func testAFalseMatchUploadsOnceMoreThenFails() async throws {
        let model = UploadDeviceModel()
        model.forcedMatch = false
        let device = MockDevice(script: model.script(bufferSize: 512, bufferCount: 4))
        let upload = ImageUpload(client: SMPClient(transport: device, configuration: SMPClientConfiguration(timeout: .seconds(2))), target: ImageUploadTarget())
        do {
            _ = try await upload.upload(from: file, sha: SHA256Hash.digest(file))
            XCTFail("expected a verification failure")
        } catch {
            XCTAssertEqual(error as? TransferVerificationError, .imageMismatch(attempts: 2))
        }
        let firstChunks = model.firstChunks
        XCTAssertEqual(firstChunks.count, 3, "first upload, the state-clearing chunk, the second upload")
        XCTAssertNotNil(firstChunks[0]["sha"])
        XCTAssertNil(firstChunks[1]["sha"], "the second upload clears the device's state with a chunk without sha")
        XCTAssertNotNil(firstChunks[2]["sha"])
    }

    func testAMatchingUploadTakesOneAttempt() async throws {
        let model = UploadDeviceModel()
        let device = MockDevice(script: model.script(bufferSize: 512, bufferCount: 4))
        let upload = ImageUpload(client: SMPClient(transport: device, configuration: SMPClientConfiguration(timeout: .seconds(2))), target: ImageUploadTarget())
        let result = try await upload.upload(from: file, sha: SHA256Hash.digest(file))
        XCTAssertEqual(result.attempts, 1)
        XCTAssertTrue(result.isVerified)
        XCTAssertFalse(result.isUnverifiedResume)
    }
}
