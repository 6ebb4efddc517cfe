import CBOR
import SMP
import SMPSimulator
import XCTest

/// A reset takes effect `resetDelay` after its answer, and the device is silent for `bootTime`.
final class ResetTimingTests: XCTestCase {
    private let echo = TestFrames.request(.write, command: 0, payload: ["d": "hi"])

    func testOldStateUntilTheResetDelaySilenceWhileBootingThenTheNewState() async throws {
        let clock = ManualUptime()
        let device = ImageTestDevice(resetDelay: .milliseconds(250), bootTime: .seconds(2), uptime: clock)
        _ = try await device.upload(ImageTestDevice.file(2, hash: 0x22))
        _ = try await device.send(.write, 0, ["hash": .bytes(ImageTestDevice.hash32(0x22))])
        try await device.reset()
        let count = await device.device.resetCount
        XCTAssertEqual(count, 1, "the reset is counted when it is answered")

        clock.advance(by: .milliseconds(249))
        var list = try await device.list()
        XCTAssertEqual(list, ["0/0 1.0.0 ac", "0/1 2.0.0 p"], "the old state is answered until the reset delay has passed")

        clock.advance(by: .milliseconds(1))
        var answers = await device.device.handle(frame: echo)
        XCTAssertEqual(answers, [], "booting: no answer")
        clock.advance(by: .milliseconds(1999))
        answers = await device.device.deliveries(for: echo).map(\.bytes)
        XCTAssertEqual(answers, [], "still booting")

        clock.advance(by: .milliseconds(1))
        list = try await device.list()
        XCTAssertEqual(list, ["0/0 2.0.0 a", "0/1 1.0.0 c"])
        let statistics = await device.device.statistics
        XCTAssertEqual(statistics.framesWhileResetting, 2)
    }

    func testInspectionAppliesADueReset() async throws {
        let clock = ManualUptime()
        let device = ImageTestDevice(resetDelay: .milliseconds(100), uptime: clock)
        let file = ImageTestDevice.file(3, hash: 0x33)
        _ = try await device.upload(file)
        _ = try await device.send(.write, 0, ["hash": .bytes(ImageTestDevice.hash32(0x33)), "confirm": true])
        try await device.reset()
        var group = try await device.group()
        XCTAssertEqual(group.contents(image: 0, slot: 1), file, "not yet reset")
        clock.advance(by: .milliseconds(100))
        group = try await device.group()
        XCTAssertEqual(group.contents(image: 0, slot: 0), file, "swapped when inspected after the delay, without a frame")
    }

    func testASecondRequestWhileOneIsPendingResetsOnceAtTheFirstTime() async throws {
        struct Boots: SimulatedGroup {
            var boots: [Duration] = []
            var group: SMPGroup { SMPGroup(rawValue: 70) }
            func implements(command: UInt8) -> Bool { false }
            mutating func handle(_ request: SimulatedRequest, context: inout SimulatedDeviceContext) throws(SimulatedError) -> CBORMap {
                throw .notSupported
            }
            mutating func deviceDidReset(context: SimulatedDeviceContext) { boots.append(context.uptime) }
        }
        let clock = ManualUptime()
        let device = VirtualDevice(groups: [Boots()], uptime: clock.source)
        var events = device.resets.makeAsyncIterator()
        _ = try await device.respond(to: TestFrames.request(.write, command: 5))
        clock.advance(by: .milliseconds(200))
        _ = try await device.respond(to: TestFrames.request(.write, command: 5))
        let first = await events.next()
        let second = await events.next()
        XCTAssertEqual([first?.number, second?.number], [1, 2], "both requests are answered and announced")
        clock.advance(by: .milliseconds(49))
        var boots = await device.group(SMPGroup(rawValue: 70)) as? Boots
        XCTAssertEqual(boots?.boots, [])
        clock.advance(by: .milliseconds(1))
        boots = await device.group(SMPGroup(rawValue: 70)) as? Boots
        XCTAssertEqual(boots?.boots, [.milliseconds(250)])
        clock.advance(by: .seconds(1))
        boots = await device.group(SMPGroup(rawValue: 70)) as? Boots
        XCTAssertEqual(boots?.boots, [.milliseconds(250)], "one reset for both requests")
    }

    func testWithoutDelayAndBootTimeTheNextFrameSeesTheNewState() async throws {
        let device = ImageTestDevice()
        _ = try await device.upload(ImageTestDevice.file(2, hash: 0x22))
        _ = try await device.send(.write, 0, ["hash": .bytes(ImageTestDevice.hash32(0x22)), "confirm": true])
        try await device.reset()
        let list = try await device.list()
        XCTAssertEqual(list, ["0/0 2.0.0 ac", "0/1 1.0.0 "])
        let statistics = await device.device.statistics
        XCTAssertEqual(statistics.framesWhileResetting, 0)
    }
}
