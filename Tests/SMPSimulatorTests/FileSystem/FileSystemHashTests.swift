import CBOR
import Crypto
import SMP
import SMPSimulator
import XCTest

/// Status, hash/checksum (crc32 as zlib, sha256) with `off`/`len`, and the supported types (docs/protocol/file-system.md §9.3–9.5).
final class FileSystemHashTests: XCTestCase {
    private let check = Array("123456789".utf8)

    private func device(hashTypes: [String] = ["crc32", "sha256"], flavour: SMPServerFlavour = .zephyr) -> FileSystemTestDevice {
        FileSystemTestDevice(
            SimulatedFileSystemConfiguration(files: ["/lfs1/check": check, "/lfs1/empty": []], hashTypes: hashTypes), flavour: flavour)
    }

    func testStatus() async throws {
        let device = device()
        var answer = try await device.send(.read, 1, ["name": "/lfs1/check"])
        XCTAssertEqual(answer, ["len": 9])
        answer = try await device.send(.read, 1, ["name": "/lfs1/nothing"])
        XCTAssertEqual(FileSystemTestDevice.errorCode(answer), 3)
        answer = try await device.send(.read, 1, ["name": "/lfs1"])
        XCTAssertEqual(FileSystemTestDevice.errorCode(answer), 4)
    }

    func testCRC32IsZlibsAndTheDefault() async throws {
        let answer = try await device().send(.read, 2, ["name": "/lfs1/check"])
        XCTAssertEqual(answer, ["type": "crc32", "len": 9, "output": .unsigned(0xCBF4_3926)])
        XCTAssertEqual(CRC32.checksum(check), 0xCBF4_3926)
    }

    func testSHA256OfARange() async throws {
        let answer = try await device().send(.read, 2, ["name": "/lfs1/check", "type": "sha256", "off": 2, "len": 4])
        XCTAssertEqual(answer, ["type": "sha256", "off": 2, "len": 4, "output": .bytes(Array(SHA256.hash(data: Array(check[2..<6]))))])
        let clipped = try await device().send(.read, 2, ["name": "/lfs1/check", "type": "sha256", "off": 5, "len": 100])
        XCTAssertEqual(clipped["len"], 4, "the bytes actually hashed")
    }

    func testWithoutCRC32TheDefaultIsSHA256() async throws {
        let answer = try await device(hashTypes: ["sha256"]).send(.read, 2, ["name": "/lfs1/check"])
        XCTAssertEqual(answer["type"], "sha256")
        let types = try await device(hashTypes: ["sha256"]).send(.read, 3)
        XCTAssertEqual(types, ["types": ["sha256": ["format": 1, "size": 32]]])
    }

    func testErrors() async throws {
        let device = device()
        var answer = try await device.send(.read, 2, ["name": "/lfs1/check", "type": "md5"])
        XCTAssertEqual(FileSystemTestDevice.errorCode(answer), 13)
        answer = try await device.send(.read, 2, ["name": "/lfs1/check", "off": 9])
        XCTAssertEqual(FileSystemTestDevice.errorCode(answer), 12)
        answer = try await device.send(.read, 2, ["name": "/lfs1/empty"])
        XCTAssertEqual(FileSystemTestDevice.errorCode(answer), 16)
        answer = try await device.send(.read, 2, ["name": "/lfs1/check", "len": 0])
        XCTAssertEqual(answer, ["rc": 3])
        answer = try await device.send(.read, 2, ["name": "/lfs1/gone"])
        XCTAssertEqual(FileSystemTestDevice.errorCode(answer), 3)
    }

    func testSupportedTypes() async throws {
        let answer = try await device().send(.read, 3)
        XCTAssertEqual(answer, ["types": ["crc32": ["format": 0, "size": 4], "sha256": ["format": 1, "size": 32]]])
    }

    func testLegacyUnknownTypeIsInvalid() async throws {
        let answer = try await device(flavour: .legacy).send(.read, 2, ["name": "/lfs1/check", "type": "md5"])
        XCTAssertEqual(answer, ["rc": .integer(SMPReturnCode.invalidValue.rawValue)])
    }
}
