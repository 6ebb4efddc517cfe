import SMPFleet
import SMPKit
import XCTest
@testable import smpctl

/// `-c`, a profile's connection and a targets-file line are read by the one parser of connection
/// text: the same text gives the same selection, or the same error, typed as a connection-string or
/// a selector mistake, in each place.
final class ConnectionTextPlacesTests: XCTestCase {
    private let texts = [
        "udp:192.0.2.1?timeout=2", "serial:usb=2fe3:0100", "ble:name=Zephyr", "serial:*", "serial:vid=2fe3?baud=115200",
        "udp:127.0.0.1:14000-14001", "ble:name=Zephyr-*?scan=2", "udp:192.0.2.1:99999", "serial:ttyACM0", "tcp:x",
        "serial:vendor=2fe3", "udp:127.0.0.1:14010-14000", "serial:vid=2fe3?baud=fast",
    ]

    func testAProfileAndATargetsFileLineReadTheTextAsDashCDoes() {
        for text in texts {
            let expected = Result { () throws(ConnectionTextError) in try DeviceSelection(parsing: text) }
            let profile = Result { () throws(ConfigProblem) in try ConfigSettings(connection: text).validate(at: ["profiles", "lab"]) }
            let line = Result { () throws(TargetSelectionError) in try TargetList.parse("bay-01 \(text)", source: "rack.txt")[0].selector() }
            switch (expected, profile, line) {
            case (.success(let selection), .success, .success(let selector)):
                XCTAssertEqual(selector.selection, selection, text)
            case (.failure(let error), .failure(let problem), .failure(let lineError)):
                XCTAssertEqual(problem.path, ["profiles", "lab", "connection"], text)
                XCTAssertEqual(problem.message, error.message, text)
                XCTAssertEqual(problem.hint, error.hint, text)
                XCTAssertEqual(lineError.message, "rack.txt:1: " + error.message, text)
                XCTAssertEqual(lineError.hint, error.hint, text)
            default:
                XCTFail("\(text): -c \(expected), profile \(profile), targets file \(line)")
            }
        }
    }
}
