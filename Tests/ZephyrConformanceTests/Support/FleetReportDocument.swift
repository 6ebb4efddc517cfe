import Foundation
import XCTest

/// A many-device run's report as the issue 17 spec lays it out (`--report FILE.json`, and the last
/// JSON object `--json` prints): `schemaVersion`, `command`, `summary{devices, succeeded, skipped,
/// failed, interrupted, notStarted}` and `devices[]` with `name`, `connection`, `transport`,
/// `identity{serialNumber, usbPath, address}`, `status`, `before`/`after` (image entries with
/// `image`, `slot`, `version`, `imageHash`, …), `phases[]{name, seconds}`, `seconds`, `retries`
/// and `error{code, name, message, hint}`.
///
/// The checks name the key they miss, so that a renamed key shows at once.
struct FleetReportDocument {
    let object: [String: Any]
    /// Where it came from, for messages.
    let source: String

    init(object: [String: Any], source: String) {
        self.object = object
        self.source = source
    }

    /// Reads a JSON report file.
    init(file: URL) throws {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw BootloaderBench.Failure("smpctl wrote no report at \(file.path) (--report)")
        }
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw BootloaderBench.Failure("\(file.path) is not a JSON object:\n\(String(decoding: data, as: UTF8.self).prefix(2000))")
        }
        self.init(object: object, source: file.path)
    }

    /// The report's text, for messages.
    var text: String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return "\(object)" }
        return String(String(decoding: data, as: UTF8.self).prefix(6000)) + " (\(source))"
    }

    /// `summary`, as numbers.
    var summary: [String: Int] { (object["summary"] as? [String: Any] ?? [:]).compactMapValues { $0 as? Int } }

    /// `devices`, in target order.
    var devices: [[String: Any]] { object["devices"] as? [[String: Any]] ?? [] }

    /// The device entry named `label`.
    func device(_ label: String) -> [String: Any]? { devices.first { $0["name"] as? String == label } }

    /// Fails unless the top level holds `schemaVersion` 1, a `command` naming `command`, and a
    /// summary with these counts (the others zero).
    func expectTopLevel(
        command: String, devices count: Int, succeeded: Int = 0, skipped: Int = 0, failed: Int = 0,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(object["schemaVersion"] as? Int, 1, "schemaVersion: \(text)", file: file, line: line)
        let named = (object["command"] as? String) ?? ((object["command"] as? [String])?.joined(separator: " ") ?? "")
        XCTAssertTrue(named.contains(command), "command should name \(command): \(text)", file: file, line: line)
        let expected = ["devices": count, "succeeded": succeeded, "skipped": skipped, "failed": failed, "interrupted": 0, "notStarted": 0]
        XCTAssertEqual(summary, expected, "summary: \(text)", file: file, line: line)
        XCTAssertEqual(devices.count, count, "devices[]: \(text)", file: file, line: line)
    }

    /// Fails unless the entry of `member` names it, its connection and transport, has an
    /// identity object, this `status`, phases with seconds, total seconds and retries; and an
    /// `error` (code, name, message, hint) exactly when it failed. Returns the entry.
    @discardableResult
    func expectDevice(
        _ member: FixtureRack.Member, transport: String, status: String, file: StaticString = #filePath, line: UInt = #line
    ) -> [String: Any] {
        guard let entry = device(member.label) else {
            XCTFail("no device named \(member.label): \(text)", file: file, line: line)
            return [:]
        }
        XCTAssertEqual(entry["connection"] as? String, member.connection, "\(member.label) connection: \(text)", file: file, line: line)
        XCTAssertEqual(entry["transport"] as? String, transport, "\(member.label) transport: \(text)", file: file, line: line)
        let identity = entry["identity"] as? [String: Any]
        XCTAssertNotNil(identity, "\(member.label) identity: \(text)", file: file, line: line)
        for key in ["serialNumber", "usbPath", "address"] {
            XCTAssertTrue(identity?.keys.contains(key) ?? false, "\(member.label) identity.\(key): \(text)", file: file, line: line)
        }
        XCTAssertEqual(entry["status"] as? String, status, "\(member.label) status: \(text)", file: file, line: line)
        XCTAssertGreaterThanOrEqual(entry["seconds"] as? Double ?? -1, 0, "\(member.label) seconds: \(text)", file: file, line: line)
        XCTAssertGreaterThanOrEqual(entry["retries"] as? Int ?? -1, 0, "\(member.label) retries: \(text)", file: file, line: line)
        for phase in Self.phases(of: entry) {
            XCTAssertFalse(phase.name.isEmpty, "\(member.label) phase without a name: \(text)", file: file, line: line)
            XCTAssertGreaterThanOrEqual(phase.seconds, 0, "\(member.label) phase \(phase.name) seconds: \(text)", file: file, line: line)
        }
        let error = entry["error"] as? [String: Any]
        if status == "failed" {
            XCTAssertNotNil(error?["code"] as? Int, "\(member.label) error.code: \(text)", file: file, line: line)
            for key in ["name", "message", "hint"] {
                XCTAssertFalse((error?[key] as? String ?? "").isEmpty, "\(member.label) error.\(key): \(text)", file: file, line: line)
            }
        } else {
            XCTAssertNil(error, "\(member.label) has an error but status \(status): \(text)", file: file, line: line)
        }
        return entry
    }

    /// `phases[]` of a device entry (entries without a name or seconds come out as "" / -1).
    static func phases(of entry: [String: Any]) -> [(name: String, seconds: Double)] {
        (entry["phases"] as? [[String: Any]] ?? []).map { ($0["name"] as? String ?? "", $0["seconds"] as? Double ?? -1) }
    }

    /// The version of the active image in an image list (`before`, `after`, `image list --json`'s
    /// `images`): the entry marked `active: true`.
    static func activeVersion(_ images: Any?) -> String? { active(images)?["version"] as? String }

    /// The `imageHash` of the active image in an image list.
    static func activeHash(_ images: Any?) -> String? { active(images)?["imageHash"] as? String }

    private static func active(_ images: Any?) -> [String: Any]? {
        (images as? [[String: Any]] ?? []).first { $0["active"] as? Bool == true }
    }
}
