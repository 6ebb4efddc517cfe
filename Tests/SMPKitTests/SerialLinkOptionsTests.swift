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

    func testTheStandardPlaceFollowsXDG() {
        XCTAssertEqual(LinePacingMemory.standard(environment: ["XDG_CACHE_HOME": "/c"])?.path, "/c/smpctl/line-pacing.json")
        XCTAssertEqual(LinePacingMemory.standard(environment: ["HOME": "/h"])?.path, "/h/.cache/smpctl/line-pacing.json")
        XCTAssertNil(LinePacingMemory.standard(environment: [:]))
    }
}
