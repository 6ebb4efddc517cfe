import SMPSimulator
import XCTest

/// The address a virtual device is served on over UDP: `HOST:PORT`, `[IPv6]:PORT`, `HOST`.
final class SimulatorBindAddressTests: XCTestCase {
    func testAcceptedForms() throws {
        for (text, host, port) in [
            ("127.0.0.1:1337", "127.0.0.1", 1337), ("0.0.0.0:0", "0.0.0.0", 0), ("[::1]:5683", "::1", 5683), ("[::1]", "::1", 1337),
            ("localhost", "localhost", 1337), ("::1", "::1", 1337), ("127.0.0.1:65535", "127.0.0.1", 65_535),
        ] {
            let address = try SimulatorBindAddress(parsing: text)
            XCTAssertEqual(address, SimulatorBindAddress(host: host, port: port), text)
        }
    }

    func testRefusedFormsSayWhatIsWrong() {
        for (text, problem, message) in [
            ("[::1", SimulatorBindAddressError.Problem.expectedBracketedIPv6, "[::1: expected [IPv6]:PORT"),
            ("[::1]5683", .expectedBracketedIPv6, "[::1]5683: expected [IPv6]:PORT"),
            (":1337", .noAddress, ":1337: no address given"), ("[]:1", .noAddress, "[]:1: no address given"),
            ("127.0.0.1:70000", .badPort, "127.0.0.1:70000: the port must be a number from 0 to 65535"),
            ("127.0.0.1:+1", .badPort, "127.0.0.1:+1: the port must be a number from 0 to 65535"),
            ("127.0.0.1:", .badPort, "127.0.0.1:: the port must be a number from 0 to 65535"),
            ("127.0.0.1:١٢", .badPort, "127.0.0.1:١٢: the port must be a number from 0 to 65535"),
        ] {
            XCTAssertThrowsError(try SimulatorBindAddress(parsing: text), text) { error in
                XCTAssertEqual(error as? SimulatorBindAddressError, SimulatorBindAddressError(text: text, problem: problem), text)
                XCTAssertEqual("\(error)", message)
            }
        }
    }
}
