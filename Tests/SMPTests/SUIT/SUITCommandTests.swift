import CBOR
import XCTest
@testable import SMP

/// SUIT group requests and responses (docs/protocol/suit.md §14): payload shapes, exact chunk overheads, decoding.
final class SUITCommandTests: XCTestCase {
    func testUploadChunkPayloads() {
        let envelope = SUITUploadChunk(kind: .envelope(deferInstall: true), offset: 0, data: [1, 2], length: 10)
        XCTAssertEqual(envelope.request.command, SUITCommandID.envelopeUpload)
        XCTAssertEqual(envelope.request.payload, ["len": 10, "off": 0, "data": .bytes([1, 2]), "defer_install": true])
        let later = SUITUploadChunk(kind: .envelope(deferInstall: true), offset: 2, data: [3])
        XCTAssertEqual(later.request.payload, ["off": 2, "data": .bytes([3])], "defer_install only at offset 0")
        let resource = SUITUploadChunk(kind: .resource(sessionID: 5), offset: 4, data: [9])
        XCTAssertEqual(resource.request.command, SUITCommandID.resourceUpload)
        XCTAssertEqual(resource.request.payload, ["stream_session_id": 5, "off": 4, "data": .bytes([9])], "the session in every chunk")
        let cache = SUITUploadChunk(kind: .cache(partition: 2), offset: 7, data: [])
        XCTAssertEqual(cache.request.command, SUITCommandID.cacheUpload)
        XCTAssertEqual(cache.request.payload["target_id"], 2, "the partition in every chunk")
        XCTAssertTrue(cache.request.isRetrySafe)
        XCTAssertEqual(SUITProcessEnvelope().request.payload, ["off": 0, "len": 0])
        XCTAssertFalse(SUITProcessEnvelope().request.isRetrySafe)
    }

    func testOverheadIsExact() {
        for kind in [SUITUploadKind.envelope(deferInstall: true), .resource(sessionID: 300), .cache(partition: 1)] {
            for (offset, length, dataLength) in [(UInt64(0), UInt64?(70_000), 0), (0, 70_000, 23), (24, nil, 24), (66_000, nil, 255), (66_000, nil, 256), (1 << 20, nil, 70_000)] {
                let chunk = SUITUploadChunk(kind: kind, offset: offset, data: [UInt8](repeating: 0, count: dataLength), length: length)
                let size = SMPMessage(header: SMPHeader(operation: .write, length: 0, group: .suit, sequence: 0, command: kind.command), payload: chunk.request.payload).encoded().count
                XCTAssertEqual(
                    SUITUploadChunk.overhead(kind: kind, offset: offset, dataLength: dataLength, length: length) + dataLength, size,
                    "\(kind) offset \(offset) data \(dataLength)")
            }
        }
    }

    func testErrorAnswersWithAnOffsetAreRewinds() throws {
        let target = SUITUploadTarget(kind: .cache(partition: 1))
        let wrongOffset = SMPDeviceError.returnCode(.unknown, group: SMPGroup.suit.rawValue, reason: nil)
        XCTAssertEqual(target.acknowledgement(ofError: wrongOffset, payload: ["rc": 1, "off": 4]), UploadAcknowledgement(offset: 4))
        XCTAssertNil(target.acknowledgement(ofError: wrongOffset, payload: ["rc": 3]), "an error without off stays an error")
        XCTAssertEqual(target.acknowledgement(of: SUITUploadChunk.Response(offset: 4, rc: 1)), UploadAcknowledgement(offset: 4))
        XCTAssertEqual(target.command(offset: 0, data: [1], isFirst: true, totalLength: 9, sha: [1, 2]).length, 9)
        XCTAssertNil(target.command(offset: 0, data: [1], isFirst: true, totalLength: 9, sha: [1, 2]).request.payload["sha"], "SUIT uploads carry no sha")
    }

    func testPollDecodesByteAndTextResourceIDs() throws {
        XCTAssertNil(try SUITPoll().decodeResponse(["rc": 0]))
        let bytes = try SUITPoll().decodeResponse(["rc": 0, "stream_session_id": 3, "resource_id": .bytes(Array("file://App.bin".utf8))])
        XCTAssertEqual(bytes, SUITResourceRequest(sessionID: 3, resourceID: "file://App.bin"))
        XCTAssertEqual(bytes?.fileName, "App.bin")
        let text = try SUITPoll().decodeResponse(["stream_session_id": 4, "resource_id": "http://x/y"])
        XCTAssertNil(text?.fileName, "only file:// URIs name a package file")
        XCTAssertEqual(decodeFailure(SUITPoll(), ["stream_session_id": 4, "resource_id": 7]),
                       "field \"resource_id\" should be a UTF-8 byte string but is integer")
        XCTAssertEqual(decodeFailure(SUITPoll(), ["stream_session_id": 4]), "the response has no \"resource_id\" field")
    }

    func testManifestStateFieldsAreAllOptional() throws {
        let empty = try SUITManifestStateRead(role: .applicationRoot).decodeResponse(["rc": 0])
        XCTAssertEqual(empty, SUITManifestState())
        XCTAssertNil(empty.versionText)
        let full = try SUITManifestStateRead(role: .applicationRoot).decodeResponse([
            "rc": 0, "digest": .bytes([1, 2]), "digest_algorithm": .int(-44), "sequence_number": 5, "semantic_version": [2, 1, 0, -1, 3],
        ])
        XCTAssertEqual(full.sequenceNumber, 5)
        XCTAssertEqual(full.digestAlgorithmName, "sha-512")
        XCTAssertEqual(full.versionText, "2.1.0--1.3")
        XCTAssertEqual(decodeFailure(SUITManifestStateRead(role: .applicationRoot), ["digest": "text"]),
                       "field \"digest\" should be a byte string but is text string")
        XCTAssertEqual(SUITManifestStateRead(role: .applicationRoot).request.payload, ["role": 0x20])
        XCTAssertEqual(try SUITManifestList().decodeResponse(["manifests": [["role": 0x10], ["role": 0x40]]]), [.secureTop, SUITManifestRole(rawValue: 0x40)])
        XCTAssertEqual(decodeFailure(SUITManifestList(), ["manifests": [["role": "x"]]]),
                       "manifests[0]: field \"role\" should be a non-negative integer but is text string \"x\"")
    }

    func testRoleNamesAndParsing() {
        XCTAssertEqual(SUITManifestRole(parsing: "app-root"), .applicationRoot)
        XCTAssertEqual(SUITManifestRole(parsing: "0x22"), .applicationLocal1)
        XCTAssertEqual(SUITManifestRole(parsing: "16"), .secureTop)
        XCTAssertNil(SUITManifestRole(parsing: "root"))
        XCTAssertEqual(SUITManifestRole.applicationRoot.description, "app-root (0x20)")
        XCTAssertEqual(SUITManifestRole(rawValue: 0x40).description, "0x40")
    }
}
