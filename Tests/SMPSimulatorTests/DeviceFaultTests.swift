import CBOR
import SMP
import SMPSimulator
import XCTest

/// Per-device faults (``DeviceFault``): what each does to one device, and how they are written.
final class DeviceFaultTests: XCTestCase {
    private let file = ImageTestDevice.file(2, hash: 0x22, body: 600)
    private let echo = TestFrames.request(.write, command: 0, payload: ["d": "hi"])

    /// One upload chunk's frame.
    private func chunk(at offset: Int, size: Int = 64) -> [UInt8] {
        var payload: CBORMap = ["off": .integer(offset), "data": .bytes(Array(file[offset..<min(file.count, offset + size)]))]
        if offset == 0 { payload["len"] = .integer(file.count) }
        return TestFrames.request(.write, group: .image, command: 1, payload: payload)
    }

    /// Uploads chunk by chunk until the device stops answering; returns the offset of the chunk
    /// that got no answer, or nil when every chunk was answered.
    private func uploadUntilSilent(_ device: VirtualDevice) async throws -> Int? {
        var offset = 0
        while offset < file.count {
            let answers = await device.handle(frame: chunk(at: offset))
            guard let answer = answers.first else { return offset }
            offset = try XCTUnwrap(try TestFrames.decode(answer).payload["off"]?.intValue)
        }
        return nil
    }

    func testDieMidUploadStopsAnsweringForGoodOnceTheFractionArrived() async throws {
        let device = ImageTestDevice(deviceFaults: [.dieMidUpload(fraction: 0.5)]).device
        let silent = try await uploadUntilSilent(device)
        let silentAt = try XCTUnwrap(silent, "the device answered the whole upload")
        XCTAssertLessThan(Double(silentAt), 0.5 * Double(file.count), "answered up to the chunk before the half")
        XCTAssertGreaterThanOrEqual(Double(silentAt + 64), 0.5 * Double(file.count), "silent from the chunk that reaches the half")
        let silenced = await device.isSilenced
        XCTAssertTrue(silenced)
        let afterwards = await device.handle(frame: echo)
        XCTAssertEqual(afterwards, [], "nothing is answered any more")
        let stored = await device.group(.image) as? ImageGroup
        XCTAssertEqual(stored?.contents(image: 0, slot: 1).count, silentAt + 64, "the chunk that reached the fraction was stored")
    }

    func testDieMidUploadAtOneEatsTheLastAnswerAndNoFaultAnswersEverything() async throws {
        let dying = ImageTestDevice(deviceFaults: [.dieMidUpload(fraction: 1)]).device
        let silentAt = try await uploadUntilSilent(dying)
        XCTAssertEqual(silentAt, file.count / 64 * 64, "the last chunk is not answered")
        let healthy = try await uploadUntilSilent(ImageTestDevice().device)
        XCTAssertNil(healthy)
    }

    func testSlowDelaysEveryAnswerAndQueuesRequests() async throws {
        let uptime = ManualUptime()
        let device = VirtualDevice(deviceFaults: [.slow(.milliseconds(200))], uptime: uptime.source)
        let first = await device.deliveries(for: echo)
        let second = await device.deliveries(for: echo)
        XCTAssertEqual(first.map(\.delay), [.milliseconds(200)])
        XCTAssertEqual(second.map(\.delay), [.milliseconds(400)], "the second waits for the first")
        uptime.advance(by: .seconds(1))
        let later = await device.deliveries(for: echo)
        XCTAssertEqual(later.map(\.delay), [.milliseconds(200)])
        let fast = await VirtualDevice(uptime: uptime.source).deliveries(for: echo)
        XCTAssertEqual(fast.map(\.delay), [.zero])
    }

    func testRejectImageRefusesTheFirstChunkWithTheHeaderMagicError() async throws {
        let device = ImageTestDevice(deviceFaults: [.rejectImage])
        let answer = try await device.upload(file)
        XCTAssertEqual(answer["err"]?["group"]?.int64Value, Int64(SMPGroup.image.rawValue))
        XCTAssertEqual(ImageTestDevice.errorCode(answer), ImageGroupError.invalidImageHeaderMagic.rawValue)
        let next = try await device.send(.write, 1, ["off": 64, "data": .bytes(Array(file[64..<128]))])
        XCTAssertEqual(next, ["off": 0], "no upload is in progress")
        let list = try await device.list()
        XCTAssertEqual(list, ["0/0 1.0.0 ac"], "nothing was stored")
        let echoed = try await device.device.respond(to: echo).payload
        XCTAssertEqual(echoed, ["r": "hi"], "everything else is answered")
    }

    func testNoReturnAnswersTheResetThenNothing() async throws {
        let device = ImageTestDevice(deviceFaults: [.noReturn])
        let before = try await device.device.respond(to: echo).payload
        XCTAssertEqual(before, ["r": "hi"])
        try await device.reset()
        let after = await device.device.handle(frame: echo)
        XCTAssertEqual(after, [])
        let silenced = await device.device.isSilenced
        XCTAssertTrue(silenced)
    }

    func testEachDeviceHasItsOwnIdentityAndFlash() async throws {
        let devices = (1...2).map { index in
            var configuration = VirtualDeviceConfiguration(images: SimulatedImageConfiguration(slotSize: 4096))
            configuration.identity.nodeName = "sim-\(index)"
            return VirtualDevice(configuration: configuration)
        }
        for (index, device) in devices.enumerated() {
            let info = try await device.respond(to: TestFrames.request(.read, command: 7, payload: ["format": "n"])).payload
            XCTAssertEqual(info, ["output": .text("sim-\(index + 1)")])
        }
        let uploaded = try await ImageTestDevice.upload(file, to: devices[0])
        XCTAssertEqual(uploaded["off"]?.intValue, file.count)
        let first = await devices[0].group(.image) as? ImageGroup
        let second = await devices[1].group(.image) as? ImageGroup
        XCTAssertEqual(first?.contents(image: 0, slot: 1), file)
        XCTAssertEqual(second?.contents(image: 0, slot: 1), [], "the other device's flash is untouched")
    }

    func testParsingKindsValuesAndDefaults() throws {
        XCTAssertEqual(try DeviceFault(parsing: "die-mid-upload"), .dieMidUpload(fraction: 0.5))
        XCTAssertEqual(try DeviceFault(parsing: "die-mid-upload=0.25"), .dieMidUpload(fraction: 0.25))
        XCTAssertEqual(try DeviceFault(parsing: "slow"), .slow(.milliseconds(200)))
        XCTAssertEqual(try DeviceFault(parsing: "slow=50"), .slow(.milliseconds(50)))
        XCTAssertEqual(try DeviceFault(parsing: "reject-image"), .rejectImage)
        XCTAssertEqual(try DeviceFault(parsing: "no-return"), .noReturn)
        XCTAssertEqual(DeviceFault.slow(.milliseconds(50)).description, "slow=50")
        XCTAssertEqual(DeviceFault.dieMidUpload(fraction: 0.25).description, "die-mid-upload=0.25")
        let refusals = [
            ("die-mid-upload=1.5", "from 0 to 1"), ("die-mid-upload=", "from 0 to 1"), ("slow=-1", "from 0 to 60000"),
            ("slow=0.5", "whole milliseconds"), ("reject-image=1", "takes no value"), ("fast", "unknown fault kind 'fast'"),
        ]
        for (text, fragment) in refusals {
            XCTAssertThrowsError(try DeviceFault(parsing: text), text) { error in
                XCTAssertTrue(String(describing: error).contains(fragment), "\(text): \(error)")
            }
        }
    }
}
