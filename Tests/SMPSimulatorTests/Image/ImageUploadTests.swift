import CBOR
import SMP
import XCTest
@testable import SMPSimulator

/// Upload (docs/protocol/images.md §4.3): first-chunk inspection, offsets, resume by sha, match, overrun, errors.
final class ImageUploadTests: XCTestCase {
    private let file = ImageTestDevice.file(2, hash: 0x22, body: 300)

    func testUploadWritesTheSecondarySlotAndMatchesTheSHA() async throws {
        let device = ImageTestDevice()
        let answer = try await device.upload(file, sha: SHA256Hash.digest(file))
        XCTAssertEqual(answer, ["off": .integer(file.count), "match": true])
        let group = await device.device.group(.image) as? ImageGroup
        XCTAssertEqual(group?.contents(image: 0, slot: 1), file)
        let mismatch = try await ImageTestDevice().upload(file, sha: ImageTestDevice.hash32(0))
        XCTAssertEqual(mismatch["match"], false)
        let withoutSHA = try await ImageTestDevice().upload(file)
        XCTAssertEqual(withoutSHA, ["off": .integer(file.count)])
    }

    func testSHA256KnownAnswers() {
        XCTAssertEqual(Hex.string(SHA256Hash.digest([])), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(Hex.string(SHA256Hash.digest(Array("abc".utf8))), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(
            Hex.string(SHA256Hash.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    func testWrongOffsetIsAnsweredWithTheExpectedOne() async throws {
        let device = ImageTestDevice()
        let first = try await device.send(.write, 1, ["len": .integer(file.count), "off": 0, "data": .bytes(Array(file[0..<64]))])
        XCTAssertEqual(first, ["off": 64])
        let ahead = try await device.send(.write, 1, ["off": 100, "data": .bytes([1, 2, 3])])
        XCTAssertEqual(ahead, ["off": 64])
        let poll = try await device.send(.write, 1, ["off": 64, "data": .bytes([])])
        XCTAssertEqual(poll, ["off": 64])
        let noUpload = try await ImageTestDevice().send(.write, 1, ["off": 64, "data": .bytes([1])])
        XCTAssertEqual(noUpload, ["off": 0])
    }

    func testAWriteAlignmentStoresWholeUnitsLikeMCUbootsSerialRecovery() async throws {
        var images = SimulatedImageConfiguration(slotSize: 4096)
        images.writeAlignment = 8
        let device = ImageTestDevice(images: images)
        let sha = SHA256Hash.digest(file)
        let first = try await device.send(.write, 1, ["len": .integer(file.count), "off": 0, "sha": .bytes(sha), "data": .bytes(Array(file[0..<100]))])
        XCTAssertEqual(first, ["off": 96], "the first chunk's tail that does not fill a unit is dropped")
        let unaligned = try await device.send(.write, 1, ["off": 100, "data": .bytes(Array(file[100..<150]))])
        XCTAssertEqual(unaligned, ["off": 96], "a chunk at the end of what was sent is at the wrong offset")
        let next = try await device.send(.write, 1, ["off": 96, "data": .bytes(Array(file[96..<203]))])
        XCTAssertEqual(next, ["off": 200])
        let last = try await device.send(.write, 1, ["off": 200, "data": .bytes(Array(file[200...]))])
        XCTAssertEqual(last, ["off": .integer(file.count), "match": true], "the image's end is kept although it fills no unit")
        XCTAssertEqual(file.count % 8 == 0, false, "the test file ends off a unit")
        let group = await device.device.group(.image) as? ImageGroup
        XCTAssertEqual(group?.contents(image: 0, slot: 1), file)
    }

    func testResumeBySHAAnswersTheCurrentOffset() async throws {
        let device = ImageTestDevice()
        let sha = ImageTestDevice.hash32(0x77)
        let first: CBORMap = ["len": .integer(file.count), "off": 0, "sha": .bytes(sha), "data": .bytes(Array(file[0..<100]))]
        _ = try await device.send(.write, 1, first)
        _ = try await device.send(.write, 1, ["off": 100, "data": .bytes(Array(file[100..<150]))])
        let resumed = try await device.send(.write, 1, first)
        XCTAssertEqual(resumed, ["off": 150])
        var restart = first
        restart["sha"] = .bytes(ImageTestDevice.hash32(0x78))
        let restarted = try await device.send(.write, 1, restart)
        XCTAssertEqual(restarted, ["off": 100], "another sha restarts the upload")
    }

    func testFirstChunkInspection() async throws {
        let device = ImageTestDevice()
        let header = Array(file[0..<32])
        var noMagic = header
        noMagic[0] = 0
        let large = ImageTestDevice.file(2, hash: 0x22, body: 5000)
        let cases: [(CBORMap, Int64)] = [
            (["len": 400, "data": .bytes(header)], 20),
            (["len": 400, "off": 0, "data": .bytes(Array(header[0..<31]))], 22),
            (["off": 0, "data": .bytes(header)], 21),
            (["len": 400, "off": 0, "data": .bytes(noMagic)], 23),
            (["len": 400, "off": 0, "sha": .bytes([UInt8](repeating: 1, count: 33)), "data": .bytes(header)], 24),
            (["image": 1, "len": 400, "off": 0, "data": .bytes(header)], 9),
            (["len": .integer(large.count), "off": 0, "data": .bytes(Array(large[0..<32]))], 30),
            (["len": 31, "off": 0, "data": .bytes(header)], 31),
            (["len": 400, "off": 0, "upgrade": true, "data": .bytes(Array(ImageTestDevice.file(1, hash: 1)[0..<32]))], 27),
        ]
        for (payload, code) in cases {
            let answer = try await device.send(.write, 1, payload)
            XCTAssertEqual(ImageTestDevice.errorCode(answer), code, "\(CBOR.map(payload))")
        }
        let newer = try await device.send(.write, 1, ["len": 400, "off": 0, "upgrade": true, "data": .bytes(header)])
        XCTAssertEqual(newer, ["off": 32])
    }

    func testOverrunIsAnErrorThatAbandonsTheUpload() async throws {
        let device = ImageTestDevice()
        _ = try await device.send(.write, 1, ["len": 40, "off": 0, "data": .bytes(Array(file[0..<32]))])
        let overrun = try await device.send(.write, 1, ["off": 32, "data": .bytes([UInt8](repeating: 0, count: 9))])
        XCTAssertEqual(ImageTestDevice.errorCode(overrun), 31)
        let after = try await device.send(.write, 1, ["off": 32, "data": .bytes([0])])
        XCTAssertEqual(after, ["off": 0])
    }

    func testAnImageWithoutTheSHA256TLVIsNotListed() async throws {
        let device = ImageTestDevice()
        var withoutTLV = file
        withoutTLV.removeLast(36)
        _ = try await device.upload(withoutTLV)
        let list = try await device.list()
        XCTAssertEqual(list, ["0/0 1.0.0 ac"])
    }

    func testUploadToTheRevertTargetIsRefused() async throws {
        let device = ImageTestDevice()
        _ = try await device.upload(file)
        _ = try await device.send(.write, 0, ["hash": .bytes(ImageTestDevice.hash32(0x22))])
        try await device.reset()
        let answer = try await device.send(.write, 1, ["len": 400, "off": 0, "data": .bytes(Array(file[0..<32]))])
        XCTAssertEqual(ImageTestDevice.errorCode(answer), 9)
    }

    func testUploadStateIsLostAtReset() async throws {
        let device = ImageTestDevice()
        _ = try await device.send(.write, 1, ["len": .integer(file.count), "off": 0, "data": .bytes(Array(file[0..<64]))])
        try await device.reset()
        let answer = try await device.send(.write, 1, ["off": 64, "data": .bytes(Array(file[64..<70]))])
        XCTAssertEqual(answer, ["off": 0])
    }
}
