import CBOR
import SMP
import SMPSimulator
import XCTest

/// Fault injection: repeatable with a seed, rates close to the fractions, damage always detectable.
final class FaultInjectionTests: XCTestCase {
    private func echo(_ n: Int) -> [UInt8] {
        TestFrames.request(.write, command: 0, sequence: UInt8(truncatingIfNeeded: n), payload: ["d": .text("echo \(n)")])
    }

    private func run(_ faults: FaultInjection, requests: Int = 2000) async -> (FaultStatistics, [[SimulatedDelivery]]) {
        let device = VirtualDevice(faultInjection: faults)
        var all: [[SimulatedDelivery]] = []
        for n in 0..<requests { all.append(await device.deliveries(for: echo(n))) }
        return (await device.faultStatistics, all)
    }

    func testNoFaultsDeliverEverythingOnce() async {
        let (statistics, deliveries) = await run(.none, requests: 50)
        XCTAssertEqual(statistics.responses, 50)
        XCTAssertEqual(statistics.dropped + statistics.duplicated + statistics.delayed + statistics.corrupted, 0)
        XCTAssertTrue(deliveries.allSatisfy { $0.count == 1 && $0[0].delay == .zero })
    }

    func testSameSeedSameFaults() async {
        let faults = FaultInjection(drop: 0.1, duplicate: 0.1, delay: 0.1, reorder: 0.1, corrupt: 0.1, busy: 0.1, seed: 42)
        let (first, firstDeliveries) = await run(faults, requests: 300)
        let (second, secondDeliveries) = await run(faults, requests: 300)
        XCTAssertEqual(first, second)
        XCTAssertEqual(firstDeliveries, secondDeliveries)
        var other = faults
        other.seed = 43
        let (third, _) = await run(other, requests: 300)
        XCTAssertNotEqual(first, third)
    }

    func testRatesFollowTheFractions() async {
        let faults = FaultInjection(drop: 0.2, duplicate: 0.1, delay: 0.3, delayDuration: .milliseconds(7), reorder: 0.05, corrupt: 0.15, busy: 0.25, seed: 7)
        let (statistics, _) = await run(faults)
        let requests = 2000.0
        XCTAssertEqual(Double(statistics.busy) / requests, 0.25, accuracy: 0.04)
        let responses = Double(statistics.responses)
        XCTAssertEqual(responses, requests)
        XCTAssertEqual(Double(statistics.dropped) / responses, 0.2, accuracy: 0.04)
        // The other faults apply to responses that were not dropped.
        let sent = responses - Double(statistics.dropped)
        XCTAssertEqual(Double(statistics.corrupted) / sent, 0.15, accuracy: 0.04)
        XCTAssertEqual(Double(statistics.reordered) / sent, 0.05, accuracy: 0.03)
        XCTAssertGreaterThan(statistics.duplicated, 100)
        XCTAssertGreaterThan(statistics.delayed, 300)
    }

    func testBusyAnswersWithoutProcessing() async throws {
        let device = VirtualDevice(faultInjection: FaultInjection(busy: 1))
        let response = try await device.respond(to: TestFrames.request(.write, command: 5))
        XCTAssertEqual(response.payload, ["rc": 10])
        let resets = await device.resetCount
        XCTAssertEqual(resets, 0)
    }

    func testDropDuplicateDelay() async {
        let drop = await run(FaultInjection(drop: 1), requests: 3).1
        XCTAssertEqual(drop, [[], [], []])
        let duplicate = await run(FaultInjection(duplicate: 1), requests: 1).1
        XCTAssertEqual(duplicate[0].count, 2)
        XCTAssertEqual(duplicate[0][0], duplicate[0][1])
        let delayed = await run(FaultInjection(delay: 1, delayDuration: .milliseconds(30)), requests: 1).1
        XCTAssertEqual(delayed[0].map(\.delay), [.milliseconds(30)])
    }

    func testReorderSendsTheHeldResponseAfterTheNext() async throws {
        let device = VirtualDevice(faultInjection: FaultInjection(reorder: 1))
        let first = await device.deliveries(for: echo(1))
        XCTAssertEqual(first, [])
        let second = await device.deliveries(for: echo(2))
        XCTAssertEqual(try second.map { try TestFrames.decode($0.bytes).header.sequence }, [2, 1])
        // The next one is held again (only one is held at a time).
        let third = await device.deliveries(for: echo(3))
        XCTAssertEqual(third, [])
    }

    func testDamageIsAlwaysDetectable() async throws {
        for configuration in [VirtualDeviceConfiguration(), VirtualDeviceConfiguration(flavour: .legacy)] {
            let device = VirtualDevice(configuration: configuration, faultInjection: FaultInjection(corrupt: 1, seed: 11))
            let frames = [
                TestFrames.request(.write, command: 0, payload: ["d": "hi"]), TestFrames.request(.write, command: 5),
                TestFrames.request(.read, command: 99), TestFrames.request(.read, command: 2),
            ]
            for round in 0..<400 {
                for delivery in await device.deliveries(for: frames[round % frames.count]) {
                    let bytes = delivery.bytes
                    XCTAssertThrowsError(try SMPMessage(decoding: bytes), Hex.string(bytes, separator: " ")) { error in
                        // Each kind of damage fails as what it broke: the header, the length, the CBOR.
                        switch error as? SMPFrameError {
                        case .truncatedHeader(let count)?:
                            XCTAssertEqual(count, bytes.count)
                        case .lengthMismatch(let declared, let available)?:
                            XCTAssertEqual(declared, Int(bytes[2]) << 8 | Int(bytes[3]))
                            XCTAssertEqual(available, bytes.count - 8)
                        case .invalidCBOR?:
                            XCTAssertTrue((0xFC...0xFE).contains(bytes[8]), Hex.string(bytes, separator: " "))
                        default:
                            XCTFail("\(error): \(Hex.string(bytes, separator: " "))")
                        }
                    }
                }
            }
            let statistics = await device.faultStatistics
            XCTAssertEqual(statistics.corrupted, 400)
        }
    }

    func testFractionsAreClamped() {
        let faults = FaultInjection(drop: 3, duplicate: -1, delay: .nan, delayDuration: .seconds(-1))
        XCTAssertEqual(faults.drop, 1)
        XCTAssertEqual(faults.duplicate, 0)
        XCTAssertEqual(faults.delay, 0)
        XCTAssertEqual(faults.delayDuration, .zero)
        XCTAssertFalse(FaultInjection.none.isActive)
    }
}
