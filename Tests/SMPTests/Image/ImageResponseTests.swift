import CBOR
import XCTest
@testable import SMP

/// Decoding of image responses as devices send them: Zephyr (indefinite maps, all flags),
/// MCUboot and frugal lists (missing flags and image), and malformed answers.
final class ImageResponseTests: XCTestCase {
    private let hashA = [UInt8](repeating: 0xAA, count: 32)
    private let hashB = [UInt8](repeating: 0xBB, count: 32)

    /// Decodes `bytes` (Zephyr writes indefinite-length maps and arrays) as a payload map.
    private func payload(_ writer: CBORWriter) throws -> CBORMap {
        try XCTUnwrap(try CBORDecoder().decode(writer.bytes).mapValue)
    }

    func testZephyrIndefiniteStateList() throws {
        var writer = CBORWriter(indefiniteContainers: true)
        writer.write(.map([
            "images": [
                ["slot": 0, "version": "1.2.3", "hash": .bytes(hashA), "bootable": true, "pending": false,
                 "confirmed": true, "active": true, "permanent": false],
                ["slot": 1, "version": "2.0.0.7", "hash": .bytes(hashB), "bootable": true, "pending": true,
                 "confirmed": false, "active": false, "permanent": true],
            ],
            "splitStatus": 0,
        ]))
        let list = try ImageState().decodeResponse(try payload(writer))
        XCTAssertEqual(list.splitStatus, 0)
        XCTAssertEqual(list.images, [
            ImageSlotState(slot: 0, version: "1.2.3", hash: hashA, bootable: true, confirmed: true, active: true),
            ImageSlotState(slot: 1, version: "2.0.0.7", hash: hashB, bootable: true, pending: true, permanent: true),
        ])
    }

    func testFrugalMCUbootListDefaultsToFalseAndImageZero() throws {
        let list = try ImageState().decodeResponse([
            "rc": 0, "images": [["image": 1, "slot": 0, "version": "0.1.0", "active": true], ["slot": 1, "version": "0.2.0"]],
        ])
        XCTAssertNil(list.splitStatus)
        XCTAssertEqual(list.images.map(\.image), [1, 0])
        XCTAssertEqual(list.images[0], ImageSlotState(image: 1, slot: 0, version: "0.1.0", hash: nil, active: true))
        XCTAssertEqual(list.images[1].flagsForTest, [false, false, false, false, false])
    }

    func testTestAndConfirmAnswerTheList() throws {
        let answer: CBORMap = ["images": [["slot": 1, "version": "1.0.0", "hash": .bytes(hashA), "pending": true]]]
        XCTAssertEqual(try ImageTest(hash: hashA).decodeResponse(answer).images.first?.pending, true)
        XCTAssertEqual(try ImageConfirm().decodeResponse(answer).images.count, 1)
    }

    func testMalformedStateLists() {
        let cases: [(CBORMap, String)] = [
            ([:], "no \"images\" field"),
            (["images": 3], "should be an array"),
            (["images": [1]], "element 0 of \"images\" should be a map"),
            (["images": [["version": "1.0.0"]]], "no \"slot\" field"),
            (["images": [["slot": 0]]], "no \"version\" field"),
            (["images": [["slot": 0, "version": "1", "hash": "aa"]]], "\"hash\" should be a byte string"),
            (["images": [["slot": 0, "version": "1", "hash": .bytes([1, 2])]]], "should hold 32 bytes but holds 2"),
            (["images": [["slot": 0, "version": "1", "active": 1]]], "\"active\" should be a boolean"),
            (["images": [["slot": -1, "version": "1"]]], "\"slot\" should be a non-negative integer"),
            (["images": [["image": "x", "slot": 0, "version": "1"]]], "\"image\" should be a non-negative integer"),
        ]
        for (payload, fragment) in cases {
            let detail = decodeFailure(ImageState(), payload)
            XCTAssertTrue(detail?.contains(fragment) == true, "\(detail ?? "no error") lacks \(fragment)")
        }
    }

    func testSlotInfo() throws {
        var writer = CBORWriter(indefiniteContainers: true)
        writer.write(.map(["images": [
            ["image": 0, "slots": [["slot": 0, "size": 0x40000], ["slot": 1, "size": 0x40000, "upload_image_id": 0]],
             "max_image_size": 0x3F000],
            ["image": 1, "slots": [["slot": 0, "rc": -5]]],
        ]]))
        let images = try ImageSlotInfo().decodeResponse(try payload(writer))
        XCTAssertEqual(images, [
            ImageSlotInfo.Image(image: 0, slots: [
                ImageSlotInfo.Slot(slot: 0, size: 0x40000), ImageSlotInfo.Slot(slot: 1, size: 0x40000, uploadImageID: 0),
            ], maxImageSize: 0x3F000),
            ImageSlotInfo.Image(image: 1, slots: [ImageSlotInfo.Slot(slot: 0, size: nil, rc: -5)]),
        ])
        XCTAssertTrue(decodeFailure(ImageSlotInfo(), ["images": [["slots": []]]])?.contains("\"image\"") == true)
        XCTAssertTrue(decodeFailure(ImageSlotInfo(), ["images": [["image": 0]]])?.contains("\"slots\"") == true)
    }

    func testUploadResponses() throws {
        XCTAssertEqual(try ImageUploadChunk(offset: 0, data: []).decodeResponse(["off": 512]), .init(offset: 512))
        XCTAssertEqual(
            try ImageUploadChunk(offset: 0, data: []).decodeResponse(["rc": 0, "off": 9, "match": true]),
            .init(offset: 9, match: true, rc: 0))
        XCTAssertTrue(decodeFailure(ImageUploadChunk(offset: 0, data: []), ["rc": 0])?.contains("no \"off\" field") == true)
        XCTAssertTrue(decodeFailure(ImageUploadChunk(offset: 0, data: []), ["off": -1])?.contains("non-negative") == true)
        XCTAssertTrue(decodeFailure(ImageUploadChunk(offset: 0, data: []), ["off": 1, "match": 1])?.contains("boolean") == true)
    }
}

extension ImageSlotState {
    fileprivate var flagsForTest: [Bool] { [bootable, pending, confirmed, active, permanent] }
}
