import CBOR
import SMP
import SMPSimulator
import XCTest

/// Erase (docs/protocol/images.md §4.4) and slot info (docs/protocol/images.md §4.5), and the group's absence by default.
final class ImageEraseAndSlotInfoTests: XCTestCase {
    func testEraseTheSecondaryClearsItsImageAndPendingMark() async throws {
        let device = ImageTestDevice()
        _ = try await device.upload(ImageTestDevice.file(2, hash: 0x22))
        _ = try await device.send(.write, 0, ["hash": .bytes(ImageTestDevice.hash32(0x22))])
        let answer = try await device.send(.write, 5)
        XCTAssertEqual(answer, [:])
        let list = try await device.list()
        XCTAssertEqual(list, ["0/0 1.0.0 ac"])
        try await device.reset()
        let afterReset = try await device.list()
        XCTAssertEqual(afterReset, ["0/0 1.0.0 ac"])
    }

    func testEraseErrors() async throws {
        let device = ImageTestDevice()
        let running = try await device.send(.write, 5, ["slot": 0])
        XCTAssertEqual(ImageTestDevice.errorCode(running), 9)
        let invalid = try await device.send(.write, 5, ["slot": 2])
        XCTAssertEqual(ImageTestDevice.errorCode(invalid), 14)
        _ = try await device.upload(ImageTestDevice.file(2, hash: 0x22))
        _ = try await device.send(.write, 0, ["hash": .bytes(ImageTestDevice.hash32(0x22))])
        try await device.reset()
        let revertTarget = try await device.send(.write, 5, ["slot": 1])
        XCTAssertEqual(ImageTestDevice.errorCode(revertTarget), 9)
    }

    func testEraseOfAnotherImagesSecondary() async throws {
        let device = ImageTestDevice(images: SimulatedImageConfiguration(imageCount: 2, slotSize: 4096))
        _ = try await device.upload(ImageTestDevice.file(2, hash: 0x22), image: 1)
        var list = try await device.list()
        XCTAssertEqual(list.count, 3)
        _ = try await device.send(.write, 5, ["slot": 3])
        list = try await device.list()
        XCTAssertEqual(list, ["0/0 1.0.0 ac", "1/0 1.0.0 ac"])
    }

    func testSlotInfo() async throws {
        let device = ImageTestDevice(images: SimulatedImageConfiguration(imageCount: 2, slotSize: 8192))
        let answer = try await device.send(.read, 6)
        XCTAssertEqual(answer, ["images": [
            ["image": 0, "slots": [["slot": 0, "size": 8192], ["slot": 1, "size": 8192, "upload_image_id": 0]]],
            ["image": 1, "slots": [["slot": 0, "size": 8192], ["slot": 1, "size": 8192, "upload_image_id": 1]]],
        ]])
    }

    func testUnknownCommandsAndTheDefaultDevice() async throws {
        let device = ImageTestDevice()
        let unknown = try await device.send(.write, 2)
        XCTAssertEqual(unknown["rc"], 8)
        let eraseRead = try await device.send(.read, 5)
        XCTAssertEqual(eraseRead["rc"], 8)
        let plain = try await VirtualDevice().respond(to: TestFrames.request(.read, group: .image, command: 0))
        XCTAssertEqual(plain.payload["rc"], 8, "the image group is off unless configured")
    }
}
