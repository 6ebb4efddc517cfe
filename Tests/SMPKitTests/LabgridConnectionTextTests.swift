import XCTest
@testable import SMPKit

/// `labgrid:PATTERN[?coordinator=HOST:PORT&SERIAL OPTIONS]` as connection text, and the connection
/// an acquired place's serial port becomes.
final class LabgridConnectionTextTests: XCTestCase {
    /// The selector `text` names; throws (failing the assertion that calls it) when it names one device.
    private func selector(_ text: String) throws -> DeviceSelector {
        guard case .many(let selector) = try DeviceSelection(parsing: text) else { throw NotASelector(text: text) }
        return selector
    }

    /// Connection text that names one device where a selector was expected.
    private struct NotASelector: Error, CustomStringConvertible {
        var text: String
        var description: String { "\(text) is not a selector" }
    }

    private func mistake(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        do {
            _ = try DeviceSelection(parsing: text)
            XCTFail("\(text) was accepted", file: file, line: line)
            return ""
        } catch {
            return error.message
        }
    }

    func testAPlaceAGlobAndABracketSetAreSelectors() throws {
        XCTAssertEqual(try selector("labgrid:rack-1").form, .labgrid(pattern: "rack-1", coordinator: nil))
        XCTAssertEqual(try selector("labgrid:rack-*").form, .labgrid(pattern: "rack-*", coordinator: nil))
        XCTAssertEqual(try selector("labgrid:rack-[1-3]").form, .labgrid(pattern: "rack-[1-3]", coordinator: nil))
        XCTAssertEqual(try selector(" labgrid:rack-? ").form, .labgrid(pattern: "rack-?", coordinator: nil))
        XCTAssertEqual(try selector("labgrid:rack-1").transport, .serial)
    }

    func testTheCoordinatorAndSerialOptionsComeAfterTheQuestionMark() throws {
        let parsed = try selector("labgrid:rack-*?coordinator=lab.example:20408&baud=1000000&timeout=5")
        XCTAssertEqual(parsed.form, .labgrid(pattern: "rack-*", coordinator: "lab.example:20408"))
        XCTAssertEqual(parsed.options.baud, 1_000_000)
        XCTAssertEqual(parsed.options.timeout, 5)
        // A `?` of the pattern stays in it when options follow.
        XCTAssertEqual(try selector("labgrid:rack-??baud=9600").form, .labgrid(pattern: "rack-?", coordinator: nil))
    }

    func testAPlacesConnectionNamesItsPlaceAndCoordinator() {
        var options = ConnectionOptions()
        options.baud = 9600
        let place = ConnectionString(target: .labgridPlace(LabgridPlace(name: "rack-1", coordinator: "lab:20408")), options: options)
        XCTAssertEqual(place.description, "labgrid:rack-1?coordinator=lab:20408&baud=9600")
        XCTAssertEqual(ConnectionString(target: .labgridPlace(LabgridPlace(name: "rack-1"))).description, "labgrid:rack-1")
        XCTAssertEqual(place.transport, .serial)
    }

    func testMistakesAreNamed() {
        XCTAssertTrue(mistake("labgrid:").contains("no place given"))
        XCTAssertTrue(mistake("labgrid:a/b").contains("a place name has no spaces, / or &"))
        XCTAssertTrue(mistake("labgrid:rack-1?coordinator=").contains("coordinator= takes HOST or HOST:PORT"))
        XCTAssertTrue(mistake("labgrid:rack-1?coordinator=a:1&coordinator=b:2").contains("coordinator= is given twice"))
        XCTAssertTrue(mistake("labgrid:rack-1?psk=00").contains("unknown option for serial"))
    }

    func testTheCoordinatorIsTheOptionElseLGCoordinatorElseTheDefault() {
        XCTAssertEqual(LabgridCoordinator.address(option: "a:1", environment: ["LG_COORDINATOR": "b:2"]), "a:1")
        XCTAssertEqual(LabgridCoordinator.address(option: nil, environment: ["LG_COORDINATOR": "b:2"]), "b:2")
        XCTAssertEqual(LabgridCoordinator.address(option: nil, environment: ["LG_COORDINATOR": ""]), "127.0.0.1:20408")
    }

    func testAnAcquiredPortBecomesASerialServerAtItsSpeedUnlessABaudIsGiven() throws {
        let raw = LabgridSerialPort(host: "127.0.0.1", port: 5000, protocol: "raw", speed: 115_200)
        XCTAssertEqual(try raw.connection(options: ConnectionOptions()), try ConnectionString(parsing: "serial:tcp://127.0.0.1:5000?baud=115200"))
        var options = ConnectionOptions()
        options.baud = 9600
        options.timeout = 3
        let given = try raw.connection(options: options)
        XCTAssertEqual(given.options.baud, 9600)
        XCTAssertEqual(given.options.timeout, 3)
        // labgrid's exporters serve telnet with RFC 2217 (the default protocol of a NetworkSerialPort).
        let exported = LabgridSerialPort(host: "lab-a", port: 40001, protocol: "rfc2217", speed: 1_000_000)
        XCTAssertEqual(try exported.connection(options: ConnectionOptions()), try ConnectionString(parsing: "serial:rfc2217://lab-a:40001?baud=1000000"))
    }
}
