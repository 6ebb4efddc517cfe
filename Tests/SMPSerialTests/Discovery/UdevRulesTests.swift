import Foundation
import SMPSerial
import SMPSerialDiscovery
import SMPTestSupport
import XCTest

/// udev/60-smpctl.rules: applied by udev itself (`udevadm test` on recorded ports under umockdev,
/// the rules installed in a mount namespace of the test's own; udev 252 has no `udevadm verify`),
/// well-formed, and the policy they promise: uaccess, never a world-writable mode, the
/// allow-listed vendors, and a place before 73-seat-late.rules.
final class UdevRulesTests: XCTestCase {
    private static let url = ExternalTool.packageRoot.appendingPathComponent("udev/60-smpctl.rules")

    /// One `KEY{attribute} OP "value"` of a rule.
    private struct Pair {
        var key: String
        var attribute: String?
        var op: String
        var value: String
    }

    private static let matchOnly: Set<String> = [
        "ACTION", "DEVPATH", "KERNEL", "KERNELS", "SUBSYSTEM", "SUBSYSTEMS", "DRIVER", "DRIVERS", "ATTRS", "TAGS", "TEST", "PROGRAM", "RESULT", "CONST",
    ]
    private static let assignOnly: Set<String> = ["OWNER", "GROUP", "MODE", "SECLABEL", "RUN", "LABEL", "GOTO", "IMPORT", "OPTIONS"]
    private static let either: Set<String> = ["NAME", "SYMLINK", "ATTR", "SYSCTL", "ENV", "TAG"]
    private static let withAttribute: Set<String> = ["ATTR", "ATTRS", "SYSCTL", "ENV", "CONST", "TEST", "IMPORT", "RUN", "SECLABEL"]
    private static let substitutions: Set<String> = [
        "env", "attr", "kernel", "number", "devpath", "id", "driver", "major", "minor", "result", "parent", "name", "links", "root",
        "sys", "devnode", "tempnode",
    ]

    private func rules() throws -> [(line: Int, pairs: [Pair])] {
        let text = try String(contentsOf: Self.url, encoding: .utf8)
        var rules: [(Int, [Pair])] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            XCTAssertFalse(line.hasSuffix("\\"), "line \(index + 1): keep rules on one line")
            rules.append((index + 1, try parse(line, lineNumber: index + 1)))
        }
        return rules
    }

    /// Parses `KEY{attr}OP"value", …`, failing on anything else.
    private func parse(_ line: String, lineNumber: Int) throws -> [Pair] {
        var rest = Substring(line)
        var pairs: [Pair] = []
        func fail(_ problem: String) -> Error {
            XCTFail("line \(lineNumber): \(problem): \(line)")
            return CocoaError(.fileReadCorruptFile)
        }
        while !rest.isEmpty {
            let key = rest.prefix(while: { $0.isUppercase || $0 == "_" })
            guard !key.isEmpty else { throw fail("expected a key at \"\(rest)\"") }
            rest = rest.dropFirst(key.count)
            var attribute: String?
            if rest.first == "{" {
                guard let close = rest.firstIndex(of: "}") else { throw fail("unclosed {") }
                attribute = String(rest[rest.index(after: rest.startIndex)..<close])
                rest = rest[rest.index(after: close)...]
            }
            guard let op = ["==", "!=", "+=", "-=", ":=", "="].first(where: { rest.hasPrefix($0) }) else { throw fail("expected an operator") }
            rest = rest.dropFirst(op.count)
            guard rest.first == "\"" else { throw fail("values must be quoted") }
            rest = rest.dropFirst()
            var value = ""
            var escaped = false
            while let character = rest.first, escaped || character != "\"" {
                escaped = !escaped && character == "\\"
                value.append(character)
                rest = rest.dropFirst()
            }
            guard rest.first == "\"" else { throw fail("unterminated value") }
            rest = rest.dropFirst().drop(while: { $0 == " " })
            if rest.first == "," {
                rest = rest.dropFirst().drop(while: { $0 == " " })
                if rest.isEmpty { throw fail("a comma at the end") }
            } else if !rest.isEmpty {
                throw fail("expected a comma before \"\(rest)\"")
            }
            pairs.append(Pair(key: String(key), attribute: attribute, op: op, value: value))
        }
        return pairs
    }

    func testEveryRuleIsWellFormed() throws {
        let rules = try rules()
        XCTAssertGreaterThan(rules.count, 8)
        var labels: Set<String> = [], gotos: [String] = []
        for (line, pairs) in rules {
            for pair in pairs {
                let isMatch = pair.op == "==" || pair.op == "!="
                XCTAssertTrue(
                    Self.matchOnly.union(Self.assignOnly).union(Self.either).contains(pair.key), "line \(line): unknown key \(pair.key)")
                if Self.matchOnly.contains(pair.key) { XCTAssertTrue(isMatch, "line \(line): \(pair.key) only matches") }
                if Self.assignOnly.contains(pair.key) { XCTAssertFalse(isMatch, "line \(line): \(pair.key) only assigns") }
                if ["LABEL", "GOTO"].contains(pair.key) { XCTAssertEqual(pair.op, "=", "line \(line)") }
                XCTAssertEqual(
                    pair.attribute != nil, Self.withAttribute.contains(pair.key), "line \(line): \(pair.key) and its {attribute}")
                if pair.key == "LABEL" { labels.insert(pair.value) }
                if pair.key == "GOTO" { gotos.append(pair.value) }
                try checkSubstitutions(pair.value, line: line)
            }
            let assignments = pairs.filter { $0.op != "==" && $0.op != "!=" }
            XCTAssertFalse(assignments.isEmpty && pairs.first?.key != "LABEL", "line \(line): a rule that only matches does nothing")
        }
        for target in gotos { XCTAssertTrue(labels.contains(target), "GOTO=\"\(target)\" has no LABEL") }
    }

    /// `$env{NAME}`, `$attr{file}` and the other `$name` substitutions udev knows.
    private func checkSubstitutions(_ value: String, line: Int) throws {
        var rest = Substring(value)
        while let dollar = rest.firstIndex(of: "$") {
            rest = rest[rest.index(after: dollar)...]
            if rest.first == "$" { rest = rest.dropFirst(); continue }
            let name = rest.prefix(while: \.isLetter)
            XCTAssertTrue(Self.substitutions.contains(String(name)), "line \(line): unknown substitution $\(name)")
            rest = rest.dropFirst(name.count)
            if ["env", "attr"].contains(name) {
                XCTAssertEqual(rest.first, "{", "line \(line): $\(name) needs {…}")
                guard let close = rest.firstIndex(of: "}") else { return XCTFail("line \(line): unclosed $\(name){") }
                XCTAssertFalse(rest[rest.index(after: rest.startIndex)..<close].isEmpty, "line \(line): empty $\(name){}")
                rest = rest[rest.index(after: close)...]
            }
        }
    }

    func testAccessIsUaccessForTheAllowListedVendorsAndNeverWorldWritable() throws {
        let pairs = try rules().flatMap(\.pairs)
        XCTAssertTrue(pairs.contains { $0.key == "TAG" && $0.op == "+=" && $0.value == "uaccess" })
        for pair in pairs where pair.key == "MODE" {
            let mode = Int(pair.value, radix: 8) ?? 0o777
            XCTAssertEqual(mode & 0o002, 0, "MODE=\"\(pair.value)\" makes the device world-writable")
        }
        let vendors = pairs.filter { $0.key == "ATTRS" && $0.attribute == "idVendor" && $0.op == "==" }.map(\.value)
        let allowList = SerialVendorCatalog.entries.filter(\.isLikelySMP).map { entry in
            let hex = String(entry.vendorID, radix: 16)
            return String(repeating: "0", count: 4 - hex.count) + hex
        }
        XCTAssertEqual(vendors, allowList)
        XCTAssertTrue(pairs.contains { $0.key == "SYMLINK" && $0.op == "+=" && $0.value.hasPrefix("smp/") })
        // logind turns the uaccess tag into an ACL in 73-seat-late.rules, so the tag must come first.
        let number = Int(Self.url.lastPathComponent.prefix(while: \.isNumber)) ?? 99
        XCTAssertLessThan(number, 73)
    }

    func testTheREADMEInstallsAndUninstallsThisFile() throws {
        let readme = try String(contentsOf: ExternalTool.packageRoot.appendingPathComponent("udev/README.md"), encoding: .utf8)
        for command in [
            "sudo install -m 644 udev/60-smpctl.rules /etc/udev/rules.d/", "sudo udevadm control --reload",
            "sudo udevadm trigger --subsystem-match=tty", "sudo rm /etc/udev/rules.d/60-smpctl.rules", "usermod -aG dialout",
        ] {
            XCTAssertTrue(readme.contains(command), "udev/README.md lacks \(command)")
        }
    }

    /// What `udevadm test` makes of a mocked port with these rules installed: its properties
    /// (`KEY=VALUE` lines; `CURRENT_TAGS` are this event's, `TAGS` keeps the recording's too) and
    /// every line it wrote about 60-smpctl.rules.
    private func udevadmTest(_ syspath: String, rules: URL = url) throws -> (properties: [String: String], ruleLines: [String]) {
        let umockdev = try FixtureTools.require("umockdev-run", package: "umockdev")
        let udevadm = try FixtureTools.require("udevadm", package: "udev")
        guard FileManager.default.fileExists(atPath: "/etc/udev/rules.d") else {
            try ExternalTool.unavailable("/etc/udev/rules.d is missing (apt-get install udev)")
        }
        // In a ``MountNamespace`` of the test's own: the rules go into /etc/udev/rules.d on a tmpfs,
        // and /run and /dev are tmpfs too (with the host's null, random, pts and shm), because
        // udevadm test writes its database into /run/udev and makes the links (/dev/smp/…,
        // /dev/serial/by-id/…), which discovery would then find. umockdev gives it the recorded devices.
        let install = """
            set -e
            mount -t tmpfs none /etc/udev/rules.d
            cp "$0" /etc/udev/rules.d/60-smpctl.rules
            mount -t tmpfs none /run
            mkdir /run/host-dev
            mount --rbind /dev /run/host-dev
            mount -t tmpfs none /dev
            for node in null zero random urandom; do touch /dev/$node; mount --bind /run/host-dev/$node /dev/$node; done
            for folder in pts shm; do mkdir /dev/$folder; mount --rbind /run/host-dev/$folder /dev/$folder; done
            ln -s pts/ptmx /dev/ptmx
            exec "$@"
            """
        let fixture = ExternalTool.packageRoot.appendingPathComponent("Tests/Fixtures/udev/serial-ports.umockdev").path
        let (program, arguments) = try MountNamespace.command(
            setUp: install, argument: rules.path, umockdev, ["-d", fixture, "--", udevadm, "test", "--action=add", syspath])
        let run = try ProcessRunner.run(program, arguments, timeout: 60)
        let output = run.stdout + run.stderr
        guard output.contains("Reading rules file: /etc/udev/rules.d/60-smpctl.rules") else {
            try ExternalTool.unavailable("udevadm test did not run with the rules (user namespaces or umockdev missing?): \(output.suffix(2000))")
        }
        XCTAssertEqual(run.status, 0, String(output.suffix(2000)))
        var properties: [String: String] = [:]
        for line in output.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "="), equals != line.startIndex, line[..<equals].allSatisfy({ $0.isUppercase || $0.isNumber || $0 == "_" }) else { continue }
            properties[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return (properties, output.split(separator: "\n").map(String.init).filter { $0.contains("60-smpctl.rules:") })
    }

    private static let devices = "/sys/devices/pci0000:00/0000:00:14.0/usb1"

    /// udevd's own rule engine (`udevadm test` on the recorded ports of Tests/Fixtures/udev):
    /// a Zephyr board and a J-Link get their `/dev/smp/SERIAL` link and uaccess, an FTDI adapter
    /// and a built-in UART get neither, and no line of the rules is refused.
    func testUdevAppliesTheRulesToRecordedPorts() throws {
        let zephyr = try udevadmTest(Self.devices + "/1-2/1-2:1.0/tty/ttyACM0")
        XCTAssertEqual(zephyr.properties["SMPCTL_VENDOR"], "zephyr")
        XCTAssertTrue(zephyr.properties["DEVLINKS"]?.split(separator: " ").contains("/dev/smp/9B1D1F8C6A3E4F21") == true, "\(zephyr.properties)")
        XCTAssertTrue(zephyr.properties["CURRENT_TAGS"]?.contains(":uaccess:") == true, "\(zephyr.properties)")
        let jlink = try udevadmTest(Self.devices + "/1-3/1-3:1.0/tty/ttyACM1")
        XCTAssertEqual(jlink.properties["SMPCTL_VENDOR"], "segger")
        XCTAssertTrue(jlink.properties["DEVLINKS"]?.split(separator: " ").contains("/dev/smp/001050123456") == true, "\(jlink.properties)")
        for other in [Self.devices + "/1-4/1-4:1.0/ttyUSB0/tty/ttyUSB0", "/sys/devices/pnp0/00:00/00:00:0/00:00:0.0/tty/ttyS0"] {
            let seen = try udevadmTest(other)
            XCTAssertNil(seen.properties["SMPCTL_VENDOR"], other)
            XCTAssertFalse(seen.properties["DEVLINKS", default: ""].contains("/dev/smp/"), other)
            XCTAssertFalse(seen.properties["CURRENT_TAGS", default: ""].contains(":uaccess:"), other)
        }
        for line in zephyr.ruleLines + jlink.ruleLines {
            XCTAssertNil(line.range(of: "invalid|unknown|error|failed|ignoring", options: [.regularExpression, .caseInsensitive]), line)
        }
    }

    /// The check above sees a rule udev refuses (a key it does not know).
    func testUdevReportsABrokenRule() throws {
        let broken = FileManager.default.temporaryDirectory.appendingPathComponent("60-smpctl-broken-\(UUID().uuidString.prefix(8)).rules")
        defer { try? FileManager.default.removeItem(at: broken) }
        let text = try String(contentsOf: Self.url, encoding: .utf8).replacingOccurrences(of: "TAG+=\"uaccess\"", with: "TAGG+=\"uaccess\"")
        try text.write(to: broken, atomically: true, encoding: .utf8)
        let seen = try udevadmTest(Self.devices + "/1-2/1-2:1.0/tty/ttyACM0", rules: broken)
        XCTAssertTrue(seen.ruleLines.contains { $0.range(of: "invalid|unknown", options: [.regularExpression, .caseInsensitive]) != nil }, "\(seen.ruleLines)")
        XCTAssertFalse(seen.properties["CURRENT_TAGS", default: ""].contains(":uaccess:"))
    }

    /// What udevadm test writes stays in its namespace: nothing in the machine's /dev or /run.
    func testUdevTestLeavesTheMachineAlone() throws {
        _ = try udevadmTest(Self.devices + "/1-2/1-2:1.0/tty/ttyACM0")
        for path in ["/dev/smp/9B1D1F8C6A3E4F21", "/dev/serial/by-id/usb-ZEPHYR_USB-DEV_9B1D1F8C6A3E4F21-if00", "/run/udev/links"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: path), path)
        }
    }
}
