import Foundation
import SMPSimulator
import XCTest

/// Reading an upgrade's outcome: the device's list through `smpctl image list --json`, the JSON
/// lines of `upgrade --json`, and the bytes in a slot.
extension XCTestCase {
    /// The device's slots as `image/slot version flags` (flags: a active, c confirmed, p pending,
    /// P permanent), e.g. `0/0 2.0.0 ac`.
    func listedSlots(_ served: ServedDevice, file: StaticString = #filePath, line: UInt = #line) async throws -> [String] {
        let run = try await SMPCtl.run(["image", "list", "--json", "-c", served.endpoint], file: file, line: line)
        let document = try run.jsonDocument(file: file, line: line)
        return slotLines(document["images"])
    }

    /// An image list (of `image list --json` or a report) as `image/slot version flags`, like ``listedSlots(_:file:line:)``.
    func slotLines(_ list: JSONNode?) -> [String] {
        (list?.array ?? []).map { entry in
            let flags = [("active", "a"), ("confirmed", "c"), ("pending", "p"), ("permanent", "P")]
                .filter { entry[$0.0]?.bool == true }.map(\.1).joined()
            return "\(entry["image"]?.int ?? -1)/\(entry["slot"]?.int ?? -1) \(entry["version"]?.string ?? "?") \(flags)"
        }
    }

    /// The hash listed for a slot.
    func listedHash(_ served: ServedDevice, image: Int = 0, slot: Int) async throws -> String? {
        let run = try await SMPCtl.run(["image", "list", "--json", "-c", served.endpoint])
        return try run.jsonDocument()["images"]?.array?.first { $0["image"]?.int == image && $0["slot"]?.int == slot }?["imageHash"]?.string
    }

    /// The `step` names of the JSON lines of a run, in order, for steps that started.
    func startedSteps(_ events: [JSONNode]) -> [String] {
        events.filter { $0["event"]?.string == "step" && $0["status"]?.string == "started" }.compactMap { $0["step"]?.string }
    }

    /// That `run` (an `upgrade --json` over BLE) took every step of a test-and-confirm upgrade,
    /// reconnected after the device's reset, and left 2.0.0 active and confirmed on `served`.
    func assertUpgradedAfterReconnecting(
        _ run: SMPCtlRun, on served: ServedDevice, file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        assertExit(run, 0, file: file, line: line)
        let events = try jsonLines(run, file: file, line: line)
        XCTAssertEqual(
            startedSteps(events), ["upload", "test", "reset", "wait", "verify-running", "confirm", "verify-confirmed"], file: file, line: line)
        XCTAssertTrue(events.contains { $0["message"]?.string?.contains("reconnected") == true }, run.stdout, file: file, line: line)
        let slots = try await listedSlots(served, file: file, line: line)
        XCTAssertEqual(slots.first, "0/0 2.0.0 ac", file: file, line: line)
    }

    /// The JSON lines of a `--json` run, each an object.
    func jsonLines(_ run: SMPCtlRun, file: StaticString = #filePath, line: UInt = #line) throws -> [JSONNode] {
        try run.stdout.split(separator: "\n").map { text in
            let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
            XCTAssertTrue(object is [String: Any], "not an object: \(text)", file: file, line: line)
            return JSONNode(object)
        }
    }

    /// Whether a slot of the device holds exactly `path`'s bytes.
    func slotHolds(_ served: ServedDevice, image: Int = 0, slot: Int, file path: String) async throws -> Bool {
        let found = await served.device.group(.image) as? ImageGroup
        let group = try XCTUnwrap(found)
        return group.contents(image: image, slot: slot) == [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
