import CBOR
import SMP
import SMPSimulator
import XCTest

/// Flash erases and writes keep a single-threaded device busy: answers are delayed until the
/// work is done, and later frames wait for it (docs/protocol/images.md §4.3 step 13).
final class FlashTimingTests: XCTestCase {
    private let file = ImageTestDevice.file(2, hash: 0x22, body: 1000)
    private let timing = SimulatedFlashTiming(eraseBytesPerSecond: 4096, writeBytesPerSecond: 1024)

    private func device(_ clock: ManualUptime) -> ImageTestDevice {
        ImageTestDevice(images: SimulatedImageConfiguration(slotSize: 8192, flashTiming: timing), uptime: clock)
    }

    private func chunk(_ offset: Int, _ length: Int) -> [UInt8] {
        var payload: CBORMap = ["off": .integer(offset), "data": .bytes(Array(file[offset..<offset + length]))]
        if offset == 0 { payload["len"] = .integer(file.count) }
        return TestFrames.request(.write, group: .image, command: 1, payload: payload)
    }

    private func delays(_ device: ImageTestDevice, _ frame: [UInt8]) async -> [Duration] {
        await device.device.deliveries(for: frame).map(\.delay)
    }

    func testTimeConversions() {
        XCTAssertEqual(timing.eraseTime(bytes: 1), .seconds(1), "erases cover whole 4096-byte pages")
        XCTAssertEqual(timing.eraseTime(bytes: 4097), .seconds(2))
        XCTAssertEqual(timing.writeTime(bytes: 256), .milliseconds(250))
        XCTAssertEqual(SimulatedFlashTiming().eraseTime(bytes: 1 << 20), .zero, "no speed: instant")
        XCTAssertEqual(SimulatedFlashTiming(writeBytesPerSecond: 0).writeTime(bytes: 10), .zero)
    }

    func testFirstChunkErasesThenEveryChunkWrites() async throws {
        let clock = ManualUptime()
        let device = device(clock)
        var delays = await delays(device, chunk(0, 256))
        XCTAssertEqual(delays, [.milliseconds(1250)], "erase 4096 bytes (1 s) + write 256 bytes (0.25 s)")
        delays = await self.delays(device, chunk(256, 256))
        XCTAssertEqual(delays, [.milliseconds(1500)], "arrives while the first chunk is still being written")
        clock.advance(by: .seconds(2))
        delays = await self.delays(device, chunk(512, 512))
        XCTAssertEqual(delays, [.milliseconds(500)], "an idle device only writes")
        delays = await self.delays(device, TestFrames.request(.write, command: 0, payload: ["d": "x"]))
        XCTAssertEqual(delays, [.milliseconds(500)], "an echo waits for the write before it")
        clock.advance(by: .seconds(1))
        delays = await self.delays(device, TestFrames.request(.write, command: 0, payload: ["d": "x"]))
        XCTAssertEqual(delays, [.zero])
    }

    func testEraseCommandErasesTheWholeSlot() async throws {
        let clock = ManualUptime()
        let device = device(clock)
        let delays = await delays(device, TestFrames.request(.write, group: .image, command: 5))
        XCTAssertEqual(delays, [.seconds(2)], "8192 bytes at 4096 bytes/s")
    }

    func testInjectedDelaysAddToTheBusyTime() async throws {
        let clock = ManualUptime()
        let configuration = VirtualDeviceConfiguration(images: SimulatedImageConfiguration(slotSize: 8192, flashTiming: timing))
        let device = VirtualDevice(
            configuration: configuration, faultInjection: FaultInjection(delay: 1, delayDuration: .milliseconds(30)),
            uptime: clock.source)
        let delays = await device.deliveries(for: chunk(0, 256)).map(\.delay)
        XCTAssertEqual(delays, [.milliseconds(1280)])
    }

    func testResponsesOfOneFrameShareTheFinishTime() async throws {
        let clock = ManualUptime()
        let device = device(clock)
        let delays = await delays(device, chunk(0, 32) + chunk(32, 224))
        XCTAssertEqual(delays, [.milliseconds(1250), .milliseconds(1250)], "the frame's answers leave together")
    }
}
