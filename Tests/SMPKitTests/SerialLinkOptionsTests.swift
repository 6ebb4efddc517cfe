#if canImport(Glibc)
import Glibc
#endif
import SMP
import SMPSerial
import XCTest
@testable import SMPKit

/// Serial lines over TCP, framings, line pacing and the assumed buffer size in connection strings.
final class SerialLinkOptionsTests: XCTestCase {
    func testSerialOverTCP() {
        XCTAssertEqual(parsed("serial:tcp://127.0.0.1:5000")?.target, .serialServer(SerialServerAddress(kind: .raw, host: "127.0.0.1", port: 5000)))
        XCTAssertEqual(parsed("serial:tcp://[::1]:5000")?.target, .serialServer(SerialServerAddress(kind: .raw, host: "::1", port: 5000)))
        XCTAssertEqual(parsed("serial:tcp://lab-host:7000?framing=raw")?.options.framing, .raw)
        XCTAssertEqual(parsed("serial:tcp://[::1]:5000?baud=9600")?.description, "serial:tcp://[::1]:5000?baud=9600")
    }

    func testSerialOverTCPWithoutAPort() {
        assertRejected("serial:tcp://127.0.0.1", part: "tcp://127.0.0.1", problem: "expected tcp://HOST:PORT")
        assertRejected("serial:tcp://127.0.0.1:0", part: "tcp://127.0.0.1:0", problem: "expected tcp://HOST:PORT")
        assertRejected("serial:tcp://:5000", part: "tcp://:5000", problem: "expected tcp://HOST:PORT")
    }

    func testFramingsAndPacing() {
        let options = parsed("serial:/dev/ttyACM0?framing=shell&burst=8&gap=5&buf-size=2048")?.options
        XCTAssertEqual(options?.framing, .shell)
        XCTAssertEqual(options?.linePacing, LinePacing(burst: 8, gap: .milliseconds(5)))
        XCTAssertEqual(options?.bufferSize, 2048)
        XCTAssertEqual(parsed("serial:auto?burst=0")?.options.linePacing?.isUnpaced, true)
        XCTAssertEqual(parsed("serial:auto?gap=40")?.options.linePacing, LinePacing(burst: 2, gap: .milliseconds(40)))
        XCTAssertNil(parsed("serial:auto")?.options.linePacing)
        XCTAssertEqual(parsed("udp:h?buf-size=1024")?.options.bufferSize, 1024)
        XCTAssertEqual(
            parsed("serial:/dev/ttyACM0?gap=5&framing=raw&burst=8")?.description,
            "serial:/dev/ttyACM0?framing=raw&burst=8&gap=5")
    }

    func testBadFramingAndPacing() {
        assertRejected("serial:auto?framing=slip", part: "framing=slip", problem: "expected console, raw or shell")
        assertRejected("serial:auto?burst=-1", part: "burst=-1", problem: "from 0 to 1024")
        assertRejected("serial:auto?gap=5000", part: "gap=5000", problem: "from 0 to 1000")
        assertRejected("serial:auto?buf-size=10", part: "buf-size=10", problem: "from 64 to 65535")
        assertRejected("udp:h?burst=2", part: "burst", problem: "unknown option for udp")
    }

    func testLearnedPacingIsRememberedPerDevice() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("smpctl-pacing-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let memory = LinePacingMemory(path: folder.appendingPathComponent("smpctl/line-pacing.json").path)
        XCTAssertNil(memory.pacing(for: "usb:2fe3:0100:A1"))
        memory.remember(LinePacing(burst: 18, gap: .milliseconds(20)), for: "usb:2fe3:0100:A1")
        memory.remember(.unpaced, for: "usb:2fe3:0100:B2")
        XCTAssertEqual(memory.pacing(for: "usb:2fe3:0100:A1"), LinePacing(burst: 18, gap: .milliseconds(20)))
        XCTAssertEqual(memory.pacing(for: "usb:2fe3:0100:B2")?.isUnpaced, true)
        try Data("not json".utf8).write(to: URL(fileURLWithPath: memory.path))
        XCTAssertNil(memory.pacing(for: "usb:2fe3:0100:A1"), "a damaged file counts as empty")
        memory.remember(.zephyrDefault, for: "usb:2fe3:0100:A1")
        XCTAssertEqual(memory.pacing(for: "usb:2fe3:0100:A1"), .zephyrDefault, "and is written anew")
    }

    func testASerialServerIsRememberedByItsAddress() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("smpctl-pacing-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let memory = LinePacingMemory(path: folder.appendingPathComponent("smpctl/line-pacing.json").path)
        let (listener, port) = try Self.listen()
        defer { close(listener) }
        let remembered = LinePacing(burst: 18, gap: .milliseconds(20))
        memory.remember(remembered, for: "tcp://127.0.0.1:\(port)")
        memory.remember(.unpaced, for: "tcp://127.0.0.1:\(port == 65_535 ? 65_534 : port + 1)")
        let server = SerialEndpoint.server(SerialServerAddress(kind: .raw, host: "127.0.0.1", port: port))
        let transport = try await SMPConnection.openSerial(server, known: nil, options: ConnectionOptions(), pacingMemory: memory)
        XCTAssertEqual(transport.linePacing, remembered)
        XCTAssertTrue(transport.linePacingIsSettled, "a remembered pacing is not learned again")
        let learned = LinePacing(burst: 9, gap: .milliseconds(20))
        transport.setLinePacing(learned, settled: true)
        XCTAssertEqual(memory.pacing(for: "tcp://127.0.0.1:\(port)"), learned, "what is learned is remembered for the address")
        await transport.close()
    }

    /// A TCP socket listening on a free loopback port (connections wait in its backlog).
    private static func listen() throws -> (Int32, Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard descriptor >= 0, bound, Glibc.listen(descriptor, 4) == 0 else { throw POSIXError(.EADDRNOTAVAIL) }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    func testTheStandardPlaceFollowsXDG() {
        XCTAssertEqual(LinePacingMemory.standard(environment: ["XDG_CACHE_HOME": "/c"])?.path, "/c/smpctl/line-pacing.json")
        XCTAssertEqual(LinePacingMemory.standard(environment: ["HOME": "/h"])?.path, "/h/.cache/smpctl/line-pacing.json")
        XCTAssertNil(LinePacingMemory.standard(environment: [:]))
    }
}
