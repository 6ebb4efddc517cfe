import XCTest
@testable import SMPKit

/// The DTLS options of `udp:` connection strings: each value, how they combine, and that a PSK is
/// never shown.
final class DTLSConnectionOptionsTests: XCTestCase {
    private let key = "00112233445566778899aabbccddeeff"

    // MARK: Values

    func testAPSKConnection() throws {
        let connection = try XCTUnwrap(parsed("udp:192.0.2.1?dtls=1&psk-id=smpctl-test&psk=\(key)&timeout=2"))
        XCTAssertEqual(connection.target, .udp(host: "192.0.2.1", port: 1337), "DTLS is an option of udp:, not a transport")
        XCTAssertEqual(connection.transport, .udp)
        let dtls = connection.options.dtls
        XCTAssertTrue(dtls.isEnabled)
        XCTAssertEqual(dtls.pskIdentity, "smpctl-test")
        XCTAssertEqual(dtls.psk?.bytes, [0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF])
        XCTAssertNil(dtls.mistake)
        XCTAssertEqual(connection.options.timeout, 2)
    }

    func testACertificateConnection() throws {
        let options = try XCTUnwrap(parsed("udp:device.local?DTLS=yes&ca=/etc/ca.pem&cert=c.pem&key=k.pem&server-name=smp-device")).options.dtls
        XCTAssertEqual(options.enabled, true)
        XCTAssertEqual(options.caFile, "/etc/ca.pem")
        XCTAssertEqual(options.certificateFile, "c.pem")
        XCTAssertEqual(options.keyFile, "k.pem")
        XCTAssertEqual(options.serverName, "smp-device")
        XCTAssertNil(options.verify, "verification is on unless verify=0 says otherwise")
        XCTAssertEqual(parsed("udp:h?dtls=1&verify=0")?.options.dtls.verify, false)
        XCTAssertEqual(parsed("udp:h?dtls=1&psk-id=a&psk-file=k.hex")?.options.dtls.pskFile, "k.hex")
    }

    func testDTLSOptionsAreUDPOnly() {
        XCTAssertEqual(
            ConnectionOptions.names(for: .udp),
            ["timeout", "retries", "mtu", "buf-size", "dtls", "psk-id", "psk", "psk-file", "ca", "cert", "key", "server-name", "verify"])
        assertRejected("serial:/dev/ttyACM0?dtls=1", part: "dtls", problem: "unknown option for serial")
        assertRejected("ble:name=x?ca=ca.pem", part: "ca", problem: "unknown option for ble")
    }

    func testBadValues() {
        assertRejected("udp:h?dtls=2", part: "dtls=2", problem: "expected 0 or 1")
        assertRejected("udp:h?dtls=1&verify=maybe", part: "verify=maybe", problem: "expected 0 or 1")
        assertRejected("udp:h?dtls=1&psk-id=&psk-file=k", part: "psk-id=", problem: "1 to 128 bytes")
        XCTAssertEqual(rejection("udp:h?dtls=1&psk-id=\(String(repeating: "i", count: 129))&psk-file=k")?.problem, "expected an identity of 1 to 128 bytes")
        assertRejected("udp:h?dtls=1&ca=", part: "ca=", problem: "expected a file path")
        assertRejected("udp:h?dtls=1&ca=c.pem&server-name=a/b", part: "server-name=a/b", problem: "host name or address")
        XCTAssertEqual(parsed("udp:h?dtls=1&psk-id=\(String(repeating: "i", count: 128))&psk=00")?.options.dtls.pskIdentity?.count, 128)
    }

    func testAPSKMustBeHexBytes() {
        for bad in ["0", "abc", "zz", "0x00", "00 11", String(repeating: "00", count: 65)] {
            guard let error = rejection("udp:h?dtls=1&psk-id=a&psk=\(bad)") else { continue }
            XCTAssertEqual(error.problem, "expected the key as hex digits, 1 to 64 bytes (2 to 128 digits)", bad)
            XCTAssertFalse(error.description.contains(bad), "the key is not quoted: \(error.description)")
            XCTAssertTrue(error.description.contains("\"psk=<hidden>\""), error.description)
        }
        XCTAssertEqual(DTLSOptions.Key(hex: String(repeating: "Ab", count: 64))?.bytes.count, 64)
        XCTAssertEqual(DTLSOptions.Key(hex: "0a0B0c")?.bytes, [0x0A, 0x0B, 0x0C])
        XCTAssertNil(DTLSOptions.Key(hex: "+1"))
        XCTAssertNil(DTLSOptions.Key(hex: ""))
    }

    // MARK: Combinations

    func testCredentialsWithoutDTLSAreRefused() {
        assertRejected("udp:h?psk-id=a&psk-file=k.hex", part: "psk-id=a", problem: "psk-id= is a DTLS option: add dtls=1")
        assertRejected("udp:h?ca=ca.pem", part: "ca=ca.pem", problem: "ca= is a DTLS option: add dtls=1")
        assertRejected("udp:h?dtls=0&verify=0", part: "verify=0", problem: "verify= is a DTLS option: add dtls=1")
        XCTAssertEqual(parsed("udp:h?dtls=0")?.options.dtls.enabled, false, "dtls=0 alone is plain UDP")
    }

    func testDTLSNeedsOneKindOfCredentials() {
        let none = rejection("udp:h?dtls=1")
        XCTAssertEqual(
            none?.problem,
            "dtls=1 needs credentials: a PSK (psk-id= with psk-file= or psk=) or the CA that signed the device's certificate (ca=)")
        XCTAssertEqual(none?.part, "dtls=1")
        XCTAssertTrue(none?.hint.contains("verify=0") ?? false, "the hint names the unverified way too")
        assertRejected("udp:h?dtls=1&psk-id=a&psk-file=k&ca=ca.pem", part: "ca=ca.pem", problem: "use one kind of credentials")
        assertRejected("udp:h?dtls=1&psk-id=a", part: "psk-id=a", problem: "psk-id= needs its key")
        assertRejected("udp:h?dtls=1&psk-file=k.hex", part: "psk-file=k.hex", problem: "add psk-id=ID")
        let twice = rejection("udp:h?dtls=1&psk-id=a&psk=00&psk-file=k.hex")
        XCTAssertEqual(twice?.description, "invalid connection string \"udp:h?dtls=1&psk-id=a&psk=<hidden>&psk-file=k.hex\": \"psk=<hidden>\": "
            + "the PSK is given twice: keep psk= or psk-file=, not both")
        assertRejected("udp:h?dtls=1&ca=ca.pem&cert=c.pem", part: "cert=c.pem", problem: "cert= needs key=")
        assertRejected("udp:h?dtls=1&ca=ca.pem&key=k.pem", part: "key=k.pem", problem: "key= needs cert=")
        assertRejected("udp:h?dtls=1&ca=ca.pem&verify=0", part: "ca=ca.pem", problem: "not used with verify=0")
    }

    func testSelectorsTakeTheSameOptionsAndRules() throws {
        let selection = try DeviceSelection(parsing: "udp:127.0.0.1:14000-14003?dtls=1&psk-id=a&psk=\(key)")
        guard case .many(let selector) = selection else { return XCTFail("not a selector: \(selection)") }
        XCTAssertEqual(selector.options.dtls.pskIdentity, "a")
        XCTAssertFalse(selector.description.contains(key), selector.description)
        XCTAssertThrowsError(try DeviceSelection(parsing: "udp:127.0.0.1:14000-14003?psk-id=a&psk=\(key)")) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("psk-id= is a DTLS option: add dtls=1"), text)
            XCTAssertFalse(text.contains(key), text)
        }
    }

    // MARK: Secrets

    func testThePSKIsNeverShown() throws {
        let connection = try XCTUnwrap(parsed("udp:192.0.2.1?dtls=1&psk-id=id&psk=\(key)"))
        XCTAssertEqual(connection.description, "udp:192.0.2.1:1337?dtls=1&psk-id=id&psk=<hidden>")
        XCTAssertEqual(connection.options.items.last?.value, "<hidden>")
        for shown in ["\(connection)", String(reflecting: connection), "\(connection.options)", String(reflecting: connection.options.dtls)] {
            XCTAssertFalse(shown.contains(key), shown)
            XCTAssertFalse(shown.contains("17, 34"), "no bytes either: \(shown)")
        }
        let error = try XCTUnwrap(rejection("udp:192.0.2.1?dtls=1&psk-id=id&psk=\(key)&colour=blue"))
        XCTAssertFalse(error.description.contains(key), error.description)
        XCTAssertTrue(error.description.contains("psk=<hidden>&colour=blue"), error.description)
    }

    func testRedactionOfAnyText() {
        XCTAssertEqual(ConnectionSecrets.redacted("udp:h?dtls=1&psk=0011&psk-id=a"), "udp:h?dtls=1&psk=<hidden>&psk-id=a")
        XCTAssertEqual(ConnectionSecrets.redacted("udp:h?PSK=0011"), "udp:h?PSK=<hidden>")
        XCTAssertEqual(ConnectionSecrets.redacted("psk=0011"), "psk=<hidden>", "one option alone")
        XCTAssertEqual(ConnectionSecrets.redacted("udp:h?psk-file=a&psk-id=psk=1"), "udp:h?psk-file=a&psk-id=psk=1", "only the psk option")
        XCTAssertEqual(ConnectionSecrets.redacted("serial:/dev/tty?x=1?psk=ab?cd"), "serial:/dev/tty?x=1?psk=<hidden>", "up to the next & only")
        XCTAssertEqual(ConnectionSecrets.redacted("udp:h:1337"), "udp:h:1337")
    }

    func testReplacingOptionValuesKeepsTheRest() {
        let text = "udp:[::1]:1337?dtls=1&CA=ca.pem&cert=/abs/c.pem&timeout=2"
        let replaced = DeviceSelection.replacingOptionValues(of: ["ca", "cert"], in: text) { "<\($0)>" }
        XCTAssertEqual(replaced, "udp:[::1]:1337?dtls=1&CA=<ca.pem>&cert=</abs/c.pem>&timeout=2")
    }
}
