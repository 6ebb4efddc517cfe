import SMPFleet
import SMPKit
import XCTest

/// Targets files: lines, labels, comments, profile names, errors with line numbers, and devices
/// named twice.
final class TargetListTests: XCTestCase {
    private func parseError(_ text: String) -> TargetSelectionError? {
        do {
            _ = try TargetList.parse(text, source: "rack.txt")
            return nil
        } catch {
            return error
        }
    }

    func testLinesLabelsCommentsAndProfileNames() throws {
        let text = """
            # rack 3, top shelf
            bay-01  serial:serial-number=E661A4D1   # the first board

            \tnet-01\tudp:192.0.2.10\r
            lab
            udp:127.0.0.1:14000-14003
            """
        let entries = try TargetList.parse(text, source: "rack.txt")
        XCTAssertEqual(entries, [
            TargetList.Entry(source: "rack.txt", line: 2, label: "bay-01", target: "serial:serial-number=E661A4D1"),
            TargetList.Entry(source: "rack.txt", line: 4, label: "net-01", target: "udp:192.0.2.10"),
            TargetList.Entry(source: "rack.txt", line: 5, label: nil, target: "lab"),
            TargetList.Entry(source: "rack.txt", line: 6, label: nil, target: "udp:127.0.0.1:14000-14003"),
        ])
        XCTAssertEqual(entries.map(\.isProfileName), [false, false, true, false])
        XCTAssertEqual(entries[1].place, "rack.txt:4")
    }

    func testEntriesResolveWithTheirLabels() async throws {
        let entries = try TargetList.parse("sim udp:127.0.0.1:14000-14001\nnet udp:192.0.2.10\n", source: "rack.txt")
        let first = try await entries[0].resolve()
        XCTAssertEqual(first.map(\.name), ["sim-1", "sim-2"])
        let second = try await entries[1].resolve()
        XCTAssertEqual(second.map(\.name), ["net"])
    }

    func testBadLinesAreDataErrorsWithTheirLineNumber() throws {
        let words = try XCTUnwrap(parseError("udp:192.0.2.1\nbay-01 udp:192.0.2.2 udp:192.0.2.3\n"))
        XCTAssertEqual(words.kind, .data)
        XCTAssertEqual(words.message, "rack.txt:2: 3 words on one line; expected [LABEL] TARGET")
        let connection = try XCTUnwrap(parseError("# devices\nbay-01 udp:192.0.2.1:99999\n"))
        XCTAssertEqual(connection.kind, .data)
        XCTAssertTrue(connection.message.hasPrefix("rack.txt:2: invalid connection string \"udp:192.0.2.1:99999\""), connection.message)
        XCTAssertTrue(connection.hint?.hasPrefix("accepted forms:") == true)
        let selector = try XCTUnwrap(parseError("serial:vendor=2fe3"))
        XCTAssertTrue(selector.message.hasPrefix("rack.txt:1: invalid serial selector"), selector.message)
        let label = try XCTUnwrap(parseError("a udp:192.0.2.1\nb udp:192.0.2.2\na udp:192.0.2.3"))
        XCTAssertEqual(label.message, "rack.txt:3: the label \"a\" is also used on line 1")
        let colon = try XCTUnwrap(parseError("udp:192.0.2.1 udp:192.0.2.2"))
        XCTAssertTrue(colon.message.hasPrefix("rack.txt:1: the label \"udp:192.0.2.1\""), colon.message)
        let empty = try XCTUnwrap(parseError("# nothing yet\n\n"))
        XCTAssertEqual(empty.message, "rack.txt names no targets")
    }

    func testTheSameDeviceTwiceIsAnErrorNamingBoth() throws {
        func target(_ name: String, _ connection: String, serial: String? = nil, address: String? = nil) throws -> DeviceTarget {
            DeviceTarget(name: name, connection: try ConnectionString(parsing: connection), identity: DeviceIdentity(serialNumber: serial, address: address))
        }
        let a = try target("bay-01", "serial:serial-number=E661A4D1", serial: "E661A4D1")
        let b = try target("bay-02", "serial:/dev/ttyACM1", serial: "e661a4d1", address: "/dev/ttyACM1")
        XCTAssertThrowsError(try TargetList.checkDistinct([a, b], origins: ["rack.txt:2", "rack.txt:7"])) { error in
            let error = error as? TargetSelectionError
            XCTAssertEqual(error?.kind, .data)
            XCTAssertEqual(error?.message, "\"bay-01\" (rack.txt:2) and \"bay-02\" (rack.txt:7) are the same device: both have the serial number e661a4d1")
        }
        let c = try target("c", "udp:192.0.2.1?timeout=2", address: "192.0.2.1:1337")
        let d = try target("d", "udp:192.0.2.1:1337", address: "other")
        XCTAssertThrowsError(try TargetList.checkDistinct([c, d])) { error in
            let error = error as? TargetSelectionError
            XCTAssertEqual(error?.kind, .usage, "without origins: a selector's own duplicates")
            XCTAssertEqual(error?.message, "\"c\" and \"d\" are the same device: both have the connection udp:192.0.2.1:1337")
        }
        let e = try target("e", "ble:AA:BB:CC:DD:EE:01", address: "AA:BB:CC:DD:EE:01")
        let f = try target("f", "serial:/dev/ttyACM0", address: "aa:bb:cc:dd:ee:01")
        XCTAssertThrowsError(try TargetList.checkDistinct([e, f])) { error in
            let error = error as? TargetSelectionError
            XCTAssertEqual(error?.kind, .usage)
            XCTAssertEqual(error?.message, "\"e\" and \"f\" are the same device: both have the address aa:bb:cc:dd:ee:01", "addresses ignore case")
        }
        XCTAssertNoThrow(try TargetList.checkDistinct([a, c, e, try target("g", "serial:/dev/ttyACM1", serial: "E661B7C2")]))
    }
}
