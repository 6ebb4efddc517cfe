import SMPFleet
import SMPKit
import XCTest

/// One grammar of connection text: `-c` (``DeviceSelection``, as the CLI reads it), a connection
/// string, a selector and a targets-file line give the same typed result, or the same typed error,
/// for the same text, for one device and for many.
final class ConnectionTextGrammarTests: XCTestCase {
    private let oneDevice = ["udp:192.0.2.1?timeout=2", "serial:/dev/ttyACM0?baud=9600", "serial:usb=2fe3:0100", "serial:tcp://127.0.0.1:5000", "ble:name=Zephyr"]
    private let manyDevices = ["serial:*", "serial:vid=2fe3?baud=115200", "serial:/dev/ttyACM*", "udp:127.0.0.1:14000-14001", "ble:name=Zephyr-*?scan=2"]
    private let connectionMistakes = ["tcp:x", "udp:192.0.2.1:99999", "serial:ttyACM0", "ble:name=", "udp:192.0.2.1?baud=9600"]
    private let selectorMistakes = [
        "serial:vendor=2fe3", "udp:127.0.0.1:14010-14000", "serial:vid=2fe3?baud=fast", "ble:name=Z*?scan=0", "udp:192.0.2.1,bad/host",
    ]

    private func mistake(_ text: String) -> ConnectionTextError? {
        do {
            _ = try DeviceSelection(parsing: text)
            return nil
        } catch {
            return error
        }
    }

    private func targetsFileMistake(_ text: String) -> TargetSelectionError? {
        do {
            _ = try TargetList.parse("bay-01 \(text)", source: "rack.txt")
            return nil
        } catch {
            return error
        }
    }

    func testEveryPlaceGetsTheSameSelection() throws {
        for text in oneDevice + manyDevices {
            let selection = try DeviceSelection(parsing: text)
            XCTAssertEqual(try TargetSelector(parsing: text).selection, selection, text)
            let entry = try XCTUnwrap(try TargetList.parse("bay-01 \(text)", source: "rack.txt").first)
            XCTAssertEqual(try entry.selector().selection, selection, text)
        }
    }

    func testAConnectionStringIsTheOneDeviceBranch() throws {
        for text in oneDevice {
            XCTAssertEqual(try DeviceSelection(parsing: text), .one(try ConnectionString(parsing: text)), text)
        }
        for text in manyDevices {
            guard case .many(let selector) = try DeviceSelection(parsing: text) else { return XCTFail("\(text) is a selector") }
            XCTAssertEqual(selector.text, text)
        }
        XCTAssertEqual(try DeviceSelection(parsing: "serial:vid=2fe3").transport, .serial)
        XCTAssertEqual(try DeviceSelection(parsing: "ble:name=Z*").transport, .ble)
    }

    func testAConnectionStringMistakeSaysSoByItsType() throws {
        for text in connectionMistakes {
            guard case .connection(let error) = mistake(text) else { return XCTFail("\(text): a connection-string mistake") }
            XCTAssertThrowsError(try ConnectionString(parsing: text), text) { XCTAssertEqual($0 as? ConnectionStringError, error, text) }
            let asSelector = TargetSelectionError(.connection(error))
            XCTAssertThrowsError(try TargetSelector(parsing: text), text) { XCTAssertEqual($0 as? TargetSelectionError, asSelector, text) }
            let inFile = try XCTUnwrap(targetsFileMistake(text), text)
            XCTAssertEqual(inFile, TargetSelectionError(.data, "rack.txt:1: " + asSelector.message, hint: asSelector.hint), text)
        }
    }

    func testASelectorMistakeSaysSoByItsType() throws {
        for text in selectorMistakes {
            guard case .selector(let error) = mistake(text) else { return XCTFail("\(text): a selector mistake") }
            XCTAssertTrue(error.message.contains(text), error.message)
            let asSelector = TargetSelectionError(.selector(error))
            XCTAssertEqual(asSelector.message, error.message)
            XCTAssertThrowsError(try TargetSelector(parsing: text), text) { XCTAssertEqual($0 as? TargetSelectionError, asSelector, text) }
            let inFile = try XCTUnwrap(targetsFileMistake(text), text)
            XCTAssertEqual(inFile, TargetSelectionError(.data, "rack.txt:1: " + asSelector.message, hint: asSelector.hint), text)
        }
    }
}
