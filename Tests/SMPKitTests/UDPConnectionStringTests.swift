import XCTest
@testable import SMPKit

final class UDPConnectionStringTests: XCTestCase {
    private func target(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> ConnectionString.Target? {
        parsed(text, file: file, line: line)?.target
    }

    // MARK: Valid forms

    func testIPv4WithDefaultPort() {
        XCTAssertEqual(target("udp:192.0.2.10"), .udp(host: "192.0.2.10", port: 1337))
    }

    func testIPv4WithPort() {
        XCTAssertEqual(target("udp:192.0.2.10:1338"), .udp(host: "192.0.2.10", port: 1338))
        XCTAssertEqual(target("udp:192.0.2.10:1"), .udp(host: "192.0.2.10", port: 1))
        XCTAssertEqual(target("udp:192.0.2.10:65535"), .udp(host: "192.0.2.10", port: 65535))
    }

    func testHostNames() {
        XCTAssertEqual(target("udp:device.local"), .udp(host: "device.local", port: 1337))
        XCTAssertEqual(target("udp:localhost:9000"), .udp(host: "localhost", port: 9000))
        XCTAssertEqual(target("udp:my-board_2.lan"), .udp(host: "my-board_2.lan", port: 1337))
    }

    func testBracketedIPv6WithPort() {
        XCTAssertEqual(target("udp:[2001:db8::1]:1337"), .udp(host: "2001:db8::1", port: 1337))
        XCTAssertEqual(target("udp:[::1]:5683"), .udp(host: "::1", port: 5683))
    }

    func testBracketedIPv6WithoutPort() {
        XCTAssertEqual(target("udp:[2001:db8::1]"), .udp(host: "2001:db8::1", port: 1337))
    }

    func testLinkLocalWithZone() {
        XCTAssertEqual(target("udp:[fe80::1%eth0]:1337"), .udp(host: "fe80::1%eth0", port: 1337))
        XCTAssertEqual(target("udp:[fe80::1%25eth0]:1337"), .udp(host: "fe80::1%eth0", port: 1337))
    }

    func testUnbracketedIPv6HasNoPort() {
        XCTAssertEqual(target("udp:fe80::1%25eth0"), .udp(host: "fe80::1%eth0", port: 1337))
        XCTAssertEqual(target("udp:fe80::1%eth0"), .udp(host: "fe80::1%eth0", port: 1337))
        XCTAssertEqual(target("udp:2001:db8::1"), .udp(host: "2001:db8::1", port: 1337))
        XCTAssertEqual(target("udp:::1"), .udp(host: "::1", port: 1337))
    }

    // MARK: Malformed parts

    func testPortZero() {
        assertRejected("udp:192.0.2.1:0", part: "0", problem: "the port must be a number from 1 to 65535")
    }

    func testPortTooLarge() {
        assertRejected("udp:192.0.2.1:65536", part: "65536", problem: "from 1 to 65535")
        assertRejected("udp:192.0.2.1:99999", part: "99999", problem: "from 1 to 65535")
        XCTAssertEqual(rejection("udp:192.0.2.1:99999")?.description,
                       "invalid connection string \"udp:192.0.2.1:99999\": \"99999\": the port must be a number from 1 to 65535")
    }

    func testPortWithLetters() {
        assertRejected("udp:192.0.2.1:http", part: "http", problem: "port")
        assertRejected("udp:192.0.2.1:13a7", part: "13a7", problem: "port")
        assertRejected("udp:[::1]:abc", part: "abc", problem: "port")
    }

    func testPortWithASignOrSpaces() {
        assertRejected("udp:192.0.2.1:+1337", part: "+1337", problem: "port")
        assertRejected("udp:192.0.2.1:-1", part: "-1", problem: "port")
        assertRejected("udp:192.0.2.1: 1337", part: " 1337", problem: "port")
    }

    func testEmptyPort() {
        assertRejected("udp:192.0.2.1:", part: "", problem: "port")
        assertRejected("udp:[::1]:", part: "", problem: "port")
    }

    func testUnclosedBracket() {
        assertRejected("udp:[fe80::1%eth0:1337", part: "[fe80::1%eth0:1337", problem: "no closing ]")
        assertRejected("udp:[::1", part: "[::1", problem: "no closing ]")
    }

    func testBracketsAroundIPv4() {
        assertRejected("udp:[192.0.2.1]:1337", part: "192.0.2.1", problem: "brackets are only for IPv6")
        assertRejected("udp:[device.local]", part: "device.local", problem: "brackets are only for IPv6")
    }

    func testJunkAfterTheClosingBracket() {
        assertRejected("udp:[::1]1337", part: "1337", problem: "expected :PORT after the ]")
        assertRejected("udp:[::1]x:1", part: "x:1", problem: "expected :PORT")
    }

    func testEmptyHost() {
        assertRejected("udp::1337", part: ":1337", problem: "no host")
        assertRejected("udp:[]:1337", part: "[]:1337", problem: "no host")
    }

    func testBadCharactersInTheHost() {
        assertRejected("udp:exa mple.com", part: "exa mple.com", problem: "\" \"")
        assertRejected("udp:host/path", part: "host/path", problem: "\"/\"")
        assertRejected("udp:user@host", part: "user@host", problem: "\"@\"")
        assertRejected("udp:[fe80::1%eth0/x]", part: "fe80::1%eth0/x", problem: "valid IPv6")
        assertRejected("udp:host#1:1337", part: "host#1", problem: "\"#\"")
    }

    func testHostNamesTooLongToExist() throws {
        let label = String(repeating: "a", count: 64)
        assertRejected("udp:\(label).example", part: "\(label).example", problem: "too long for a host name")
        let long = String(repeating: "a", count: 10_000)
        XCTAssertThrowsError(try ConnectionString(parsing: "udp:" + long)) { error in
            let message = "\(error)"
            XCTAssertTrue(message.contains("too long for a host name"), message)
            XCTAssertTrue(message.contains("(10004 characters)") && message.count < 400, "the message repeats the whole input: \(message.count) characters")
        }
        let longest = [63, 63, 63, 61].map { String(repeating: "b", count: $0) }.joined(separator: ".")
        XCTAssertEqual(target("udp:" + longest), .udp(host: longest, port: 1337), "253 characters, 63 between dots, is a host name")
    }
}

final class UDPConnectionStringIPv6ValidationTests: XCTestCase {
    func testUnbracketedTextWithSeveralColonsMustBeIPv6() throws {
        for input in ["udp:192.0.2.1:1337:1", "udp:device.local:80:90", "udp:fe80::1::2", "udp:[12345::1]:1337", "udp:fe80::1%"] {
            XCTAssertThrowsError(try ConnectionString(parsing: input), input) { error in
                XCTAssert("\(error)".contains("IPv6"), "\(input): \(error)")
            }
        }
        XCTAssertEqual(try ConnectionString(parsing: "udp:::ffff:192.0.2.1").target, .udp(host: "::ffff:192.0.2.1", port: 1337))
    }
}
