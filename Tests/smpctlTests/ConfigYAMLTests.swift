import Foundation
import SMPTestSupport
import XCTest

@testable import smpctl

/// The config file's YAML through libyaml (``YAMLReader``, ``YAMLWriter``): files in the forms
/// the docs show and earlier smpctl versions wrote (through Yams) read the same, and a rewrite is
/// byte for byte what those versions wrote.
final class ConfigYAMLTests: XCTestCase {
    /// A config file holding `text`, in a fresh folder.
    private func store(_ text: String) throws -> ConfigStore {
        let folder = try FileSystemTestFolder(self)
        return ConfigStore(path: try folder.write("config.yaml", Array(text.utf8)))
    }

    /// The example of docs/configuration.md (its first `yaml` block), comments and all.
    func testTheDocumentedExampleReads() throws {
        let doc = try String(contentsOfFile: ExternalTool.packageRoot.appendingPathComponent("docs/configuration.md").path, encoding: .utf8)
        let start = try XCTUnwrap(doc.range(of: "```yaml\n"))
        let end = try XCTUnwrap(doc.range(of: "```", range: start.upperBound..<doc.endIndex))
        let file = try store(String(doc[start.upperBound..<end.lowerBound])).load()
        XCTAssertEqual(file.defaults, ConfigSettings(options: ["timeout": "5", "retries": "3", "baud": "115200"]))
        XCTAssertEqual(file.profileNames, ["board2", "lab", "sim"])
        XCTAssertEqual(file.profiles["lab"], ConfigSettings(connection: "serial:/dev/serial/by-id/usb-ZEPHYR_nRF52840-if00", options: ["baud": "1000000"], window: 8))
        XCTAssertEqual(file.profiles["sim"], ConfigSettings(connection: "udp:127.0.0.1:1337?mtu=1024"))
        XCTAssertEqual(file.profiles["board2"], ConfigSettings(connection: "ble:name=Zephyr", options: ["pair": "1", "adapter": "hci1"]))
    }

    /// A file written by hand with YAML's other notations: anchors, a merge key, flow mappings,
    /// quoted values and keys, numbers in hex, octal and with exponents.
    private static let handWritten = """
        defaults: &d
          timeout: 1e1
          retries: 3
          baud: "115200"
          window: 0o10
        profiles:
          base: &b {connection: "udp:127.0.0.1", mtu: 1024}
          derived:
            <<: *b
            timeout: 2.50
            align: 0x10
          sel:
            connection: "serial:/dev/tty ACM0"
          "007":
            connection: 'udp:10.0.0.1'

        """

    /// What smpctl 0.x (Yams) wrote for ``handWritten`` after `profile add z -c serial:/dev/ttyUSB0
    /// --timeout 0.5 --baud 9600 --mtu 512 --align 4`.
    private static let writtenByYams = """
        # smpctl configuration: defaults and profiles (docs/configuration.md)
        defaults:
          timeout: 10
          retries: 3
          baud: 115200
          window: 8
        profiles:
          007:
            connection: udp:10.0.0.1
          base:
            connection: udp:127.0.0.1
            mtu: 1024
          derived:
            connection: udp:127.0.0.1
            timeout: 2.5
            mtu: 1024
            align: 16
          sel:
            connection: serial:/dev/tty ACM0
          z:
            connection: serial:/dev/ttyUSB0
            timeout: 0.5
            mtu: 512
            baud: 9600
            align: 4

        """

    func testYAMLsOtherNotationsReadAsBefore() throws {
        let file = try store(Self.handWritten).load()
        XCTAssertEqual(file.defaults, ConfigSettings(options: ["timeout": "1e1", "retries": "3", "baud": "115200"], window: 8))
        XCTAssertEqual(file.profiles["base"], ConfigSettings(connection: "udp:127.0.0.1", options: ["mtu": "1024"]))
        XCTAssertEqual(file.profiles["derived"], ConfigSettings(connection: "udp:127.0.0.1", options: ["mtu": "1024", "timeout": "2.50"], align: 16))
        XCTAssertEqual(file.profiles["sel"], ConfigSettings(connection: "serial:/dev/tty ACM0"))
        XCTAssertEqual(file.profiles["007"], ConfigSettings(connection: "udp:10.0.0.1"))
    }

    func testARewriteIsWhatEarlierVersionsWrote() throws {
        let file = try store(Self.handWritten)
        try file.update { config in
            config.profiles["z"] = ConfigSettings(connection: "serial:/dev/ttyUSB0", options: ["timeout": "0.5", "baud": "9600", "mtu": "512"], align: 4)
        }
        XCTAssertEqual(try String(contentsOfFile: file.path, encoding: .utf8), Self.writtenByYams)
        let again = try store(Self.writtenByYams)
        XCTAssertEqual(try again.load(), try file.load())
    }

    /// Text that would read back as something else, written plain, is quoted; text outside ASCII is escaped.
    func testTextThatWouldReadAsAnotherTypeIsQuoted() throws {
        let file = try store("")
        let connections = ["serial:/dev/tty ACM0", "ble:name=Zephyr é 'q' #x", "udp:[::1]:1337"]
        try file.update { config in
            for (index, connection) in connections.enumerated() { config.profiles["p\(index)"] = ConfigSettings(connection: connection) }
            config.profiles["true"] = ConfigSettings(connection: "udp:10.0.0.1")
        }
        let text = try String(contentsOfFile: file.path, encoding: .utf8)
        XCTAssertTrue(text.contains(#"connection: "ble:name=Zephyr \xE9 'q' #x""#), text)
        XCTAssertTrue(text.contains("  true:\n"), text)
        let read = try file.load()
        XCTAssertEqual(read.profileNames, ["p0", "p1", "p2", "true"])
        for (index, connection) in connections.enumerated() { XCTAssertEqual(read.profiles["p\(index)"]?.connection, connection) }
        for text in ["5", "true", "~", "", "null", "0x1F", "1:30", "2.5e3", ".inf", "2024-01-02", "<<", "="] {
            XCTAssertFalse(YAMLNode.plainIsText(text), text)
        }
        for text in ["udp:10.0.0.1", "serial:/dev/ttyACM0", "lab", "1.2.3", "0x", "yes please"] {
            XCTAssertTrue(YAMLNode.plainIsText(text), text)
        }
    }

    func testWholeNumbersInYAMLsNotations() throws {
        let cases: [(String, Int?)] = [
            ("8", 8), ("+8", 8), ("-8", -8), ("1_000", 1000), ("0x10", 16), ("0o17", 15), ("017", 15), ("0b101", 5), ("1:30", 90),
            ("0", 0), ("08", nil), ("many", nil), ("1.5", nil), ("99999999999999999999", nil), ("\"8\"", nil),
        ]
        for (text, expected) in cases {
            let node = try XCTUnwrap(try YAMLReader.document(in: "a: \(text)")?.mapping?.first?.value, text)
            XCTAssertEqual(node.int, expected, text)
        }
    }

    func testSyntaxErrorsNameTheLineAndColumn() throws {
        let cases: [(String, String)] = [
            ("profiles:\n  lab:\n   connection: [\n", ":4:1: not valid YAML: did not find expected node content"),
            ("defaults:\n  timeout: 1\n  timeout: 2\n", ":2: not valid YAML: a key is given twice: timeout"),
            ("defaults: *nowhere\n", ":1:11: not valid YAML: found undefined alias"),
            ("defaults: {}\n---\nprofiles: {}\n", ":2:1: not valid YAML: expected a single document in the stream, but found another document"),
            // libyaml's reader knows the byte, not the line.
            ("defaults:\n  timeout: \"\u{1}\"\n", ":1: not valid YAML: control characters are not allowed"),
            (String(repeating: "[", count: 600), ": not valid YAML: nested deeper than 512 levels"),
            // Ten names, each ten aliases of the one before: 10^10 nodes once expanded.
            (Self.laughs, ":6:47: not valid YAML: aliases add more than 100000 nodes"),
        ]
        for (text, expected) in cases {
            let file = try store(text)
            XCTAssertThrowsError(try file.load(), text) { error in
                let failure = CLIError(error)
                XCTAssertTrue(failure.message.hasPrefix(file.path), failure.message)
                XCTAssertTrue(failure.message.contains(expected), "\(failure.message)\nexpected: \(expected)")
            }
        }
    }

    /// `a0: &a0 [x, …]`, then `aN: &aN [*aN-1, …]`, ten of each, under `defaults`.
    private static var laughs: String {
        var text = "defaults:\n  a0: &a0 [" + Array(repeating: "x", count: 10).joined(separator: ", ") + "]\n"
        for level in 1..<10 {
            text += "  a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]\n"
        }
        return text
    }

    func testAnEmptyFileOrOneWithOnlyCommentsIsEmpty() throws {
        XCTAssertEqual(try store("").load(), ConfigFile())
        XCTAssertEqual(try store("# nothing yet\n").load(), ConfigFile())
        XCTAssertEqual(try store("defaults:\nprofiles: ~\n").load(), ConfigFile())
    }
}
