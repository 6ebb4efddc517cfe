import CBOR
import SMP
import SMPSimulator
import XCTest

/// Direct-XIP (docs/protocol/upgrade.md §17): images run from either slot; uploads go to the inactive slot and must be
/// built for it; plain mode boots the highest version, with revert the marked slot.
final class DirectXIPTests: XCTestCase {
    private let images = SimulatedImageConfiguration(slotSize: 4096, flashBase: 0x8000)

    private func device(_ mode: MCUbootMode) -> ImageTestDevice {
        ImageTestDevice(mode: mode, images: images)
    }

    /// An image of this version built for `slot` of image 0.
    private func file(_ major: UInt8, hash: UInt8, slot: Int) -> [UInt8] {
        ImageTestDevice.file(major, hash: hash, loadAddress: images.slotAddress(image: 0, slot: slot))
    }

    func testSlotAddresses() {
        XCTAssertEqual(images.slotAddress(image: 0, slot: 0), 0x8000)
        XCTAssertEqual(images.slotAddress(image: 0, slot: 1), 0x9000)
        XCTAssertEqual(images.slotAddress(image: 1, slot: 1), 0xB000)
        XCTAssertEqual(SimulatedImageConfiguration().slotAddress(image: 0, slot: 1), 0x10000 + 256 * 1024)
    }

    func testUploadRunsFromSlot1ThenTheNextUploadGoesToSlot0() async throws {
        let device = device(.directXIP)
        let second = file(2, hash: 0x22, slot: 1)
        var answer = try await device.upload(second)
        XCTAssertEqual(answer, ["off": .integer(second.count)])
        var list = try await device.list()
        XCTAssertEqual(list, ["0/0 1.0.0 ac", "0/1 2.0.0 pP"], "a higher version boots next")
        try await device.reset()
        list = try await device.list()
        XCTAssertEqual(list, ["0/0 1.0.0 ", "0/1 2.0.0 ac"])
        var group = try await device.group()
        XCTAssertEqual(group.activeSlot(image: 0), 1)

        let third = file(3, hash: 0x33, slot: 0)
        answer = try await device.upload(third)
        XCTAssertEqual(answer, ["off": .integer(third.count)])
        group = try await device.group()
        XCTAssertEqual(group.contents(image: 0, slot: 0), third, "the upload replaced the inactive slot 0")
        XCTAssertEqual(group.contents(image: 0, slot: 1), second, "the running slot is untouched")
        let info = try await device.send(.read, 6)
        XCTAssertEqual(info, ["images": [["image": 0, "slots": [["slot": 0, "size": 4096, "upload_image_id": 0], ["slot": 1, "size": 4096]]]]],
                       "slot info names the inactive slot as the target")
        try await device.reset()
        list = try await device.list()
        XCTAssertEqual(list, ["0/0 3.0.0 ac", "0/1 2.0.0 "])
    }

    func testAnImageBuiltForTheOtherSlotIsRejected() async throws {
        for mode in [MCUbootMode.directXIP, .directXIPWithRevert] {
            let device = device(mode)
            let answer = try await device.upload(file(2, hash: 0x22, slot: 0))
            XCTAssertEqual(ImageTestDevice.errorCode(answer), 25, "\(mode): INVALID_FLASH_ADDRESS")
            let unfixed = ImageTestDevice.file(2, hash: 0x22)
            let accepted = try await device.upload(unfixed)
            XCTAssertEqual(accepted["off"]?.intValue, unfixed.count, "\(mode): an image without ROM_FIXED goes anywhere")
        }
        let swap = ImageTestDevice()
        let answer = try await swap.upload(file(2, hash: 0x22, slot: 0))
        XCTAssertNil(ImageTestDevice.errorCode(answer), "swap modes ignore the load address")
    }

    func testPlainModeHasNoStateWrite() async throws {
        let device = device(.directXIP)
        _ = try await device.upload(file(2, hash: 0x22, slot: 1))
        let test = try await device.send(.write, 0, ["hash": .bytes(ImageTestDevice.hash32(0x22))])
        XCTAssertEqual(test, ["rc": 8])
        let confirm = try await device.send(.write, 0, ["confirm": true])
        XCTAssertEqual(confirm, ["rc": 8])
    }

    func testPlainModeBootsTheHighestVersionAndKeepsTheActiveSlotOnATie() async throws {
        let device = device(.directXIP)
        _ = try await device.upload(file(1, hash: 0x11, slot: 1))
        var list = try await device.list()
        XCTAssertEqual(list, ["0/0 1.0.0 ac", "0/1 1.0.0 "], "the same version is not pending")
        try await device.reset()
        var group = try await device.group()
        XCTAssertEqual(group.activeSlot(image: 0), 0, "a tie keeps the active slot")

        _ = try await device.upload(ImageTestDevice.file(0, hash: 0x10))
        try await device.reset()
        group = try await device.group()
        XCTAssertEqual(group.activeSlot(image: 0), 0, "a lower version does not boot")

        _ = try await device.upload(file(4, hash: 0x44, slot: 1))
        try await device.reset()
        list = try await device.list()
        XCTAssertEqual(list, ["0/0 1.0.0 ", "0/1 4.0.0 ac"])
    }

    func testWithRevertATestRunsUnconfirmedAndRevertsWithoutConfirm() async throws {
        let device = device(.directXIPWithRevert)
        _ = try await device.upload(file(2, hash: 0x22, slot: 1))
        var list = try await device.list()
        XCTAssertEqual(list, ["0/0 1.0.0 ac", "0/1 2.0.0 "], "nothing boots until marked")
        _ = try await device.send(.write, 0, ["hash": .bytes(ImageTestDevice.hash32(0x22))])
        list = try await device.list()
        XCTAssertEqual(list, ["0/0 1.0.0 ac", "0/1 2.0.0 p"])
        try await device.reset()
        list = try await device.list()
        XCTAssertEqual(list, ["0/0 1.0.0 c", "0/1 2.0.0 a"], "running the test image; slot 0 is the revert target")

        let upload = try await device.upload(file(3, hash: 0x33, slot: 0))
        XCTAssertEqual(ImageTestDevice.errorCode(upload), 9, "the revert target takes no upload")
        let erase = try await device.send(.write, 5, ["slot": 0])
        XCTAssertEqual(ImageTestDevice.errorCode(erase), 9, "nor an erase")

        try await device.reset()
        list = try await device.list()
        XCTAssertEqual(list, ["0/0 1.0.0 ac", "0/1 2.0.0 "], "reverted")
        let group = try await device.group()
        XCTAssertEqual(group.activeSlot(image: 0), 0)
    }

    func testWithRevertConfirmAfterTestKeepsTheNewSlot() async throws {
        let device = device(.directXIPWithRevert)
        _ = try await device.upload(file(2, hash: 0x22, slot: 1))
        _ = try await device.send(.write, 0, ["hash": .bytes(ImageTestDevice.hash32(0x22))])
        try await device.reset()
        let denied = try await device.send(.write, 0, ["hash": .bytes(ImageTestDevice.hash32(0x22)), "confirm": false])
        XCTAssertEqual(ImageTestDevice.errorCode(denied), 33, "the active slot cannot be tested")
        _ = try await device.send(.write, 0, ["hash": .bytes(ImageTestDevice.hash32(0x22)), "confirm": true])
        var list = try await device.list()
        XCTAssertEqual(list, ["0/0 1.0.0 ", "0/1 2.0.0 ac"], "confirmed with the active hash")
        try await device.reset()
        list = try await device.list()
        XCTAssertEqual(list, ["0/0 1.0.0 ", "0/1 2.0.0 ac"])
    }

    func testWithRevertConfirmWithoutHashConfirmsTheRunningImage() async throws {
        let device = device(.directXIPWithRevert)
        _ = try await device.upload(file(2, hash: 0x22, slot: 1))
        _ = try await device.send(.write, 0, ["hash": .bytes(ImageTestDevice.hash32(0x22))])
        try await device.reset()
        _ = try await device.send(.write, 0, ["confirm": true])
        try await device.reset()
        let list = try await device.list()
        XCTAssertEqual(list, ["0/0 1.0.0 ", "0/1 2.0.0 ac"])
    }

    func testWithRevertConfirmByHashIsPermanent() async throws {
        let device = device(.directXIPWithRevert)
        _ = try await device.upload(file(2, hash: 0x22, slot: 1))
        _ = try await device.send(.write, 0, ["hash": .bytes(ImageTestDevice.hash32(0x22)), "confirm": true])
        var list = try await device.list()
        XCTAssertEqual(list, ["0/0 1.0.0 ac", "0/1 2.0.0 pP"])
        try await device.reset()
        list = try await device.list()
        XCTAssertEqual(list, ["0/0 1.0.0 ", "0/1 2.0.0 ac"])
        try await device.reset()
        list = try await device.list()
        XCTAssertEqual(list, ["0/0 1.0.0 ", "0/1 2.0.0 ac"], "no revert")
        let erase = try await device.send(.write, 5)
        XCTAssertEqual(erase, [:], "the default erase is the inactive slot 0")
        let group = try await device.group()
        XCTAssertEqual(group.contents(image: 0, slot: 0), [])
    }
}
