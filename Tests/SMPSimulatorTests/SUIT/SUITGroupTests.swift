import CBOR
import SMP
import SMPSimulator
import XCTest

/// The simulated SUIT group (docs/protocol/suit.md §14): manifests, envelope checks, wrong offsets, deferred install,
/// resource requests, caches, cleanup, the install at reset, and the inter-chunk timeout.
final class SUITGroupTests: XCTestCase {
    func testManifestListAndStateCarryRC() async throws {
        let device = SUITTestDevice()
        let list = try await device.send(.read, SUITCommandID.manifestList)
        XCTAssertEqual(list["rc"], 0)
        XCTAssertEqual(list["manifests"], [["role": 0x10], ["role": 0x20], ["role": 0x22]])
        let state = try await device.send(.read, SUITCommandID.manifestState, ["role": 0x20])
        XCTAssertEqual(state["rc"], 0)
        XCTAssertEqual(state["sequence_number"], 1)
        XCTAssertEqual(state["digest_algorithm"], .int(-16))
        XCTAssertEqual(state["semantic_version"], [1, 0, 0])
        let unknown = try await device.send(.read, SUITCommandID.manifestState, ["role": 0x99])
        XCTAssertEqual(unknown, ["rc": 3])
        let bootloader = try await device.device.respond(to: TestFrames.request(.read, group: .os, command: 8)).payload
        XCTAssertEqual(bootloader["bootloader"], "SUIT")
        let image = try await device.device.respond(to: TestFrames.request(.read, group: .image, command: 0)).payload
        XCTAssertEqual(image, ["rc": 8], "a SUIT device has no image group")
    }

    func testEnvelopeWithoutResourcesInstallsAtTheReset() async throws {
        let device = SUITTestDevice()
        let (envelope, digest) = SUITTestDevice.envelope(sequence: 7)
        let answer = try await device.upload(envelope, command: SUITCommandID.envelopeUpload)
        XCTAssertEqual(answer, ["rc": 0, "off": .integer(envelope.count)])
        let resets = await device.device.resetCount
        XCTAssertEqual(resets, 1, "the device resets to install")
        let state = try await device.send(.read, SUITCommandID.manifestState, ["role": 0x20])
        XCTAssertEqual(state["digest"], .bytes(digest))
        XCTAssertEqual(state["sequence_number"], 7)
        let other = try await device.send(.read, SUITCommandID.manifestState, ["role": 0x10])
        XCTAssertEqual(other["sequence_number"], 1, "only the updatable role changes")
    }

    func testGarbageAndDamagedDigestsAreRefused() async throws {
        let device = SUITTestDevice()
        let garbage = try await device.upload(Array("not an envelope at all".utf8), command: SUITCommandID.envelopeUpload)
        XCTAssertEqual(garbage, ["rc": 3])
        let damaged = try await device.upload(SUITTestDevice.envelope(sequence: 2, damaged: true).bytes, command: SUITCommandID.envelopeUpload)
        XCTAssertEqual(damaged, ["rc": 3])
        let resets = await device.device.resetCount
        XCTAssertEqual(resets, 0)
        let noLength = try await device.send(.write, SUITCommandID.envelopeUpload, ["off": 0, "data": .bytes([1])])
        XCTAssertEqual(noLength, ["rc": 3])
    }

    func testWrongOffsetAnswersRCOneWithTheExpectedOffset() async throws {
        let device = SUITTestDevice()
        let envelope = SUITTestDevice.envelope(sequence: 2).bytes
        let none = try await device.send(.write, SUITCommandID.envelopeUpload, ["off": 10, "data": .bytes([1])])
        XCTAssertEqual(none, ["rc": 1, "off": 0])
        let first = try await device.send(
            .write, SUITCommandID.envelopeUpload, ["len": .integer(envelope.count), "off": 0, "data": .bytes(Array(envelope[0..<20]))])
        XCTAssertEqual(first, ["rc": 0, "off": 20])
        let ahead = try await device.send(.write, SUITCommandID.envelopeUpload, ["off": 40, "data": .bytes([1])])
        XCTAssertEqual(ahead, ["rc": 1, "off": 20])
        let again = try await device.send(.write, SUITCommandID.envelopeUpload, ["off": 0, "len": .integer(envelope.count), "data": .bytes(Array(envelope[0..<5]))])
        XCTAssertEqual(again, ["rc": 0, "off": 5], "offset 0 starts afresh")
    }

    func testResourcesAreRequestedOneSessionAtATimeThenInstalled() async throws {
        let device = SUITTestDevice()
        let (envelope, digest) = SUITTestDevice.envelope(sequence: 3, uris: ["file://app.bin", "file://rad.bin"])
        _ = try await device.upload(envelope, command: SUITCommandID.envelopeUpload)
        var resets = await device.device.resetCount
        XCTAssertEqual(resets, 0, "not installed before its resources")
        let request = try await device.send(.read, SUITCommandID.poll)
        XCTAssertEqual(request["resource_id"], .bytes(Array("file://app.bin".utf8)))
        let session = try XCTUnwrap(request["stream_session_id"])
        let repeated = try await device.send(.read, SUITCommandID.poll)
        XCTAssertEqual(repeated["stream_session_id"], session, "the same session until it is served")
        let wrongSession = try await device.upload([1, 2, 3], command: SUITCommandID.resourceUpload, extra: ["stream_session_id": 999])
        XCTAssertEqual(wrongSession, ["rc": 6])
        let app = [UInt8](repeating: 0xAA, count: 120)
        let served = try await device.upload(app, command: SUITCommandID.resourceUpload, extra: ["stream_session_id": session])
        XCTAssertEqual(served, ["rc": 0, "off": 120])
        let next = try await device.send(.read, SUITCommandID.poll)
        XCTAssertEqual(next["resource_id"], .bytes(Array("file://rad.bin".utf8)))
        XCTAssertNotEqual(next["stream_session_id"], session)
        _ = try await device.upload([7, 7, 7], command: SUITCommandID.resourceUpload, extra: ["stream_session_id": try XCTUnwrap(next["stream_session_id"])])
        resets = await device.device.resetCount
        XCTAssertEqual(resets, 1)
        let group = try await device.group()
        XCTAssertEqual(group.requestedResources, ["file://app.bin", "file://rad.bin"])
        XCTAssertEqual(group.receivedResources["file://app.bin"], app)
        XCTAssertEqual(group.manifests.first { $0.role == .applicationRoot }?.state.digest, digest)
        let idle = try await device.send(.read, SUITCommandID.poll)
        XCTAssertEqual(idle, ["rc": 0])
    }

    func testDeferredInstallWaitsForTheTriggerAndCachesAreKeptPerPartition() async throws {
        let device = SUITTestDevice()
        let cache = [UInt8](repeating: 0xC1, count: 130)
        let cached = try await device.upload(cache, command: SUITCommandID.cacheUpload, extra: ["target_id": 1])
        XCTAssertEqual(cached, ["rc": 0, "off": 130])
        let unknownPartition = try await device.upload(cache, command: SUITCommandID.cacheUpload, extra: ["target_id": 9])
        XCTAssertEqual(unknownPartition, ["rc": 3])
        let noTrigger = try await device.send(.write, SUITCommandID.envelopeUpload, ["off": 0, "len": 0])
        XCTAssertEqual(noTrigger, ["rc": 6], "nothing to process yet")
        let envelope = SUITTestDevice.envelope(sequence: 4).bytes
        _ = try await device.upload(envelope, command: SUITCommandID.envelopeUpload, first: ["defer_install": true])
        var resets = await device.device.resetCount
        XCTAssertEqual(resets, 0, "deferred")
        let trigger = try await device.send(.write, SUITCommandID.envelopeUpload, ["off": 0, "len": 0])
        XCTAssertEqual(trigger, ["rc": 0])
        resets = await device.device.resetCount
        XCTAssertEqual(resets, 1)
        var group = try await device.group()
        XCTAssertEqual(group.caches[1], cache)
        let cleanup = try await device.send(.write, SUITCommandID.cleanup)
        XCTAssertEqual(cleanup, ["rc": 0])
        group = try await device.group()
        XCTAssertTrue(group.caches.isEmpty)
    }

    func testAStalledUploadIsAbandonedAfterTheInterChunkTimeout() async throws {
        let uptime = ManualUptime()
        let device = SUITTestDevice(suit: SimulatedSUITConfiguration(interChunkTimeout: .seconds(5)), uptime: uptime)
        let envelope = SUITTestDevice.envelope(sequence: 2).bytes
        _ = try await device.send(.write, SUITCommandID.envelopeUpload, ["len": .integer(envelope.count), "off": 0, "data": .bytes(Array(envelope[0..<10]))])
        uptime.advance(by: .seconds(4))
        let inTime = try await device.send(.write, SUITCommandID.envelopeUpload, ["off": 10, "data": .bytes(Array(envelope[10..<20]))])
        XCTAssertEqual(inTime, ["rc": 0, "off": 20])
        uptime.advance(by: .seconds(6))
        let late = try await device.send(.write, SUITCommandID.envelopeUpload, ["off": 20, "data": .bytes(Array(envelope[20..<30]))])
        XCTAssertEqual(late, ["rc": 1, "off": 0], "abandoned: start over")
    }
}
