import XCTest
@testable import SMP

final class MCUbootModeTests: XCTestCase {
    func testNamesOfEveryKnownMode() {
        let expected: [(MCUbootMode, Int64, String)] = [
            (.unknown, -1, "unknown"), (.singleSlot, 0, "single-slot"), (.swapUsingScratch, 1, "swap-using-scratch"),
            (.overwriteOnly, 2, "overwrite-only"), (.swapUsingMove, 3, "swap-using-move"), (.directXIP, 4, "direct-xip"),
            (.directXIPWithRevert, 5, "direct-xip-with-revert"), (.ramLoad, 6, "ram-load"),
            (.firmwareLoader, 7, "firmware-loader"), (.singleSlotRAMLoad, 8, "single-slot-ram-load"),
            (.swapUsingOffset, 9, "swap-using-offset"),
        ]
        for (mode, raw, name) in expected {
            XCTAssertEqual(mode.rawValue, raw)
            XCTAssertEqual(mode.name, name)
            XCTAssertEqual(mode.description, "\(name) (\(raw))")
            XCTAssertFalse(mode.meaning.contains("does not know"), "\(name) has a meaning")
        }
    }

    func testUnknownValues() {
        for raw: Int64 in [10, 42, -2, Int64.max] {
            let mode = MCUbootMode(rawValue: raw)
            XCTAssertEqual(mode.name, "mode \(raw)")
            XCTAssertEqual(mode.description, "mode \(raw) (\(raw))")
            XCTAssertTrue(mode.meaning.contains("assume swap behaviour"))
            XCTAssertFalse(mode.supportsRevert)
        }
    }

    func testRevertSupport() {
        let reverting = (-1...12).map { MCUbootMode(rawValue: Int64($0)) }.filter(\.supportsRevert)
        XCTAssertEqual(reverting, [.swapUsingScratch, .swapUsingMove, .directXIPWithRevert, .swapUsingOffset])
    }
}
