import CBOR
import SMP
import SMPSimulator
import XCTest

/// State read/write and the bootloader at reset: test, revert, confirm, permanent, overwrite-only.
final class ImageStateTests: XCTestCase {
    func testInitialListHasTheConfirmedRunningImage() async throws {
        let device = ImageTestDevice()
        let answer = try await device.send(.read, 0)
        XCTAssertEqual(answer["splitStatus"], 0)
        let entry = try XCTUnwrap(answer["images"]?.arrayValue?.first)
        XCTAssertNil(entry["image"], "single-image devices send no image number")
        XCTAssertEqual(entry["hash"]?.bytesValue, SimulatedImageConfiguration.initialHash(image: 0))
        XCTAssertEqual(entry["bootable"], true)
        let list = try await device.list()
        XCTAssertEqual(list, ["0/0 1.0.0 ac"])
    }

    func testTestSwapsThenRevertsWithoutConfirm() async throws {
        let device = ImageTestDevice()
        _ = try await device.upload(ImageTestDevice.file(2, hash: 0x22))
        var list = try await device.list()
        XCTAssertEqual(list, ["0/0 1.0.0 ac", "0/1 2.0.0 "])
        let answer = try await device.send(.write, 0, ["hash": .bytes(ImageTestDevice.hash32(0x22)), "confirm": false])
        XCTAssertEqual(answer["images"]?.arrayValue?.count, 2, "a state write answers the list")
        list = try await device.list()
        XCTAssertEqual(list, ["0/0 1.0.0 ac", "0/1 2.0.0 p"])
        try await device.reset()
        list = try await device.list()
        XCTAssertEqual(list, ["0/0 2.0.0 a", "0/1 1.0.0 c"])
        try await device.reset()
        list = try await device.list()
        XCTAssertEqual(list, ["0/0 1.0.0 ac", "0/1 2.0.0 "])
    }

    func testConfirmAfterTestKeepsTheNewImage() async throws {
        let device = ImageTestDevice()
        _ = try await device.upload(ImageTestDevice.file(2, hash: 0x22))
        _ = try await device.send(.write, 0, ["hash": .bytes(ImageTestDevice.hash32(0x22))])
        try await device.reset()
        _ = try await device.send(.write, 0, ["confirm": true])
        try await device.reset()
        let list = try await device.list()
        XCTAssertEqual(list, ["0/0 2.0.0 ac", "0/1 1.0.0 "])
    }

    func testConfirmByHashIsPermanent() async throws {
        let device = ImageTestDevice()
        _ = try await device.upload(ImageTestDevice.file(3, hash: 0x33))
        _ = try await device.send(.write, 0, ["hash": .bytes(ImageTestDevice.hash32(0x33)), "confirm": true])
        var list = try await device.list()
        XCTAssertEqual(list, ["0/0 1.0.0 ac", "0/1 3.0.0 pP"])
        try await device.reset()
        list = try await device.list()
        XCTAssertEqual(list, ["0/0 3.0.0 ac", "0/1 1.0.0 "])
    }

    func testOverwriteOnlyCopiesWithoutRevert() async throws {
        let device = ImageTestDevice(mode: .overwriteOnly)
        _ = try await device.upload(ImageTestDevice.file(2, hash: 0x22))
        _ = try await device.send(.write, 0, ["hash": .bytes(ImageTestDevice.hash32(0x22))])
        var list = try await device.list()
        XCTAssertEqual(list, ["0/0 1.0.0 ac", "0/1 2.0.0 pP"])
        try await device.reset()
        list = try await device.list()
        XCTAssertEqual(list, ["0/0 2.0.0 ac"])
    }

    func testStateWriteErrors() async throws {
        let device = ImageTestDevice()
        _ = try await device.upload(ImageTestDevice.file(2, hash: 0x22))
        let initial = SimulatedImageConfiguration.initialHash(image: 0)
        let cases: [(CBORMap, Int64)] = [
            ([:], 24), (["confirm": false], 24), (["hash": .bytes([1, 2]), "confirm": true], 24),
            (["hash": .bytes(ImageTestDevice.hash32(0x99))], 8), (["hash": .bytes(initial)], 33),
        ]
        for (payload, code) in cases {
            let answer = try await device.send(.write, 0, payload)
            XCTAssertEqual(ImageTestDevice.errorCode(answer), code, "\(CBOR.map(payload))")
            XCTAssertEqual(answer["err"]?["group"], 1)
        }
        let wrongType = try await device.send(.write, 0, ["hash": "x"])
        XCTAssertEqual(wrongType["rc"], 3)
    }

    func testAlreadyPendingAndRevertStateRefuseAnotherChange() async throws {
        let device = ImageTestDevice()
        let hash = ImageTestDevice.hash32(0x22)
        _ = try await device.upload(ImageTestDevice.file(2, hash: 0x22))
        _ = try await device.send(.write, 0, ["hash": .bytes(hash)])
        let same = try await device.send(.write, 0, ["hash": .bytes(hash)])
        XCTAssertNil(same["err"], "repeating the same test is a no-op")
        let different = try await device.send(.write, 0, ["hash": .bytes(hash), "confirm": true])
        XCTAssertEqual(ImageTestDevice.errorCode(different), 28)
        try await device.reset()
        let revertTarget = try await device.send(.write, 0, ["hash": .bytes(SimulatedImageConfiguration.initialHash(image: 0))])
        XCTAssertEqual(ImageTestDevice.errorCode(revertTarget), 28)
    }

    func testMultiImageListsImageNumbersAndSwapsEachImage() async throws {
        let device = ImageTestDevice(images: SimulatedImageConfiguration(imageCount: 2, slotSize: 4096))
        _ = try await device.upload(ImageTestDevice.file(5, hash: 0x55), image: 1)
        _ = try await device.send(.write, 0, ["hash": .bytes(ImageTestDevice.hash32(0x55)), "confirm": true])
        var list = try await device.list()
        XCTAssertEqual(list, ["0/0 1.0.0 ac", "1/0 1.0.0 ac", "1/1 5.0.0 pP"])
        try await device.reset()
        list = try await device.list()
        XCTAssertEqual(list, ["0/0 1.0.0 ac", "1/0 5.0.0 ac", "1/1 1.0.0 "])
    }
}
