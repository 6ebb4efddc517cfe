import SMP
import XCTest
@testable import SMPFirmware

/// Application plus network core, and DirectXIP slot pairs.
final class UpgradePlannerMultiImageTests: XCTestCase {
    private typealias F = PlannerFixtures

    func testTheNetworkCoreGoesFirstAndIsConfirmedNotTested() throws {
        let app = F.image(0, version: "2.0.0", tag: 2)
        let net = F.image(1, version: "1.1.0", tag: 12, target: .networkCore)
        let device = F.device([F.slot(0, "1.0.0", tag: 1, "ac", image: 0), F.slot(0, "1.0.0", tag: 11, "ac", image: 1)])
        let plan = try MCUbootUpgradePlanner.plan(images: [app, net], device: device, options: UpgradeOptions())
        XCTAssertEqual(F.names(plan), [
            "upload:1", "upload:0", "confirm:1", "test:0", "reset", "wait", "verify-running:1,0", "confirm:0", "verify-confirmed:0",
        ])
        guard case .upload(_, let number, let count) = plan.steps[1] else { return XCTFail("\(plan.steps[1])") }
        XCTAssertEqual([number, count], [2, 2])
        XCTAssertTrue(plan.notes.contains { $0.contains("network core") }, "\(plan.notes)")
    }

    func testOnlyTheImageThatChangedIsInstalled() throws {
        let app = F.image(0, version: "2.0.0", tag: 2)
        let net = F.image(1, version: "1.0.0", tag: 11, target: .networkCore)
        let device = F.device([F.slot(0, "1.0.0", tag: 1, "ac", image: 0), F.slot(0, "1.0.0", tag: 11, "ac", image: 1)])
        let plan = try MCUbootUpgradePlanner.plan(images: [app, net], device: device, options: UpgradeOptions(mode: .confirmOnly))
        XCTAssertEqual(F.names(plan), ["upload:0", "confirm:0", "reset", "wait", "verify-running:0"])
        XCTAssertEqual(plan.decisions.map(\.action), [.running(confirmed: true), .upload])
    }

    func testDirectXIPUploadsTheBinaryForTheInactiveSlot() throws {
        let forSlot0 = F.image(0, version: "2.0.0", tag: 20, slot: 0)
        let forSlot1 = F.image(0, version: "2.0.0", tag: 21, slot: 1)
        let runningFrom0 = F.device([F.slot(0, "1.0.0", tag: 1, "ac")], mode: .directXIP)
        let plan0 = try MCUbootUpgradePlanner.plan(images: [forSlot0, forSlot1], device: runningFrom0, options: UpgradeOptions())
        XCTAssertEqual(F.names(plan0), ["upload:0", "reset", "wait", "verify-running:0"])
        XCTAssertEqual(plan0.decisions.first { $0.action == .upload }?.image, forSlot1)

        let runningFrom1 = F.device([F.slot(0, "0.9.0", tag: 9, "c"), F.slot(1, "1.0.0", tag: 1, "a")], mode: .directXIPWithRevert)
        let plan1 = try MCUbootUpgradePlanner.plan(images: [forSlot0, forSlot1], device: runningFrom1, options: UpgradeOptions())
        XCTAssertEqual(plan1.decisions.first { $0.action == .upload }?.image, forSlot0)
        XCTAssertTrue(F.names(plan1).contains("test:0"))
        XCTAssertEqual(F.names(plan1).suffix(2), ["confirm:0", "verify-confirmed:0"])
    }

    func testDirectXIPRunningEitherVariantIsDone() throws {
        let forSlot0 = F.image(0, version: "2.0.0", tag: 20, slot: 0)
        let forSlot1 = F.image(0, version: "2.0.0", tag: 21, slot: 1)
        let device = F.device([F.slot(0, "1.0.0", tag: 1), F.slot(1, "2.0.0", tag: 21, "ac")], mode: .directXIP)
        let plan = try MCUbootUpgradePlanner.plan(images: [forSlot0, forSlot1], device: device, options: UpgradeOptions())
        XCTAssertTrue(plan.isNothingToDo)
        XCTAssertEqual(plan.decisions.map(\.action), [.running(confirmed: true), .otherSlotVariant])
    }

    func testDirectXIPNeedsAHigherVersion() {
        let same = F.image(0, version: "1.0.0", tag: 21, slot: 1)
        let device = F.device([F.slot(0, "1.0.0", tag: 1, "ac")], mode: .directXIP)
        XCTAssertThrowsError(try MCUbootUpgradePlanner.plan(images: [same], device: device, options: UpgradeOptions())) { error in
            guard case .notNewer(_, _, let reason)? = error as? UpgradePlanError else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("highest version"), reason)
        }
    }
}
