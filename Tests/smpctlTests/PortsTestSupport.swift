import Dispatch
import Foundation
import SMPTestSupport
import XCTest

/// Runs the real `smpctl` under umockdev (mocked sysfs and udev): the `ports` tests, and an
/// upgrade through a device that re-enumerates.
enum MockedDevices {
    /// The `.umockdev` fixtures in Tests/Fixtures/udev.
    enum Fixture: String {
        /// With udevd's properties (ID_*, DEVLINKS).
        case withUdevProperties = "serial-ports.umockdev"
        /// Sysfs attributes only, as in a container without udevd; the link folders exist.
        case sysfsOnly = "serial-ports-sysfs-only.umockdev"

        var path: String { MockedDevices.fixtures.appendingPathComponent(rawValue).path }
    }

    static let fixtures = ExternalTool.packageRoot.appendingPathComponent("Tests/Fixtures/udev")

    /// A program in PATH (or the usual system folders), or nil.
    static func program(_ name: String) -> String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/bin", "/bin"]
        return folders.map { "\($0)/\(name)" }.first(where: FileManager.default.isExecutableFile(atPath:))
    }

    /// A required program: skips locally, fails in CI when it is missing.
    static func require(_ name: String, package: String) throws -> String {
        guard let path = program(name) else {
            try ExternalTool.unavailable("\(name) is not installed (apt-get install \(package))")
        }
        return path
    }

    /// `umockdev-run -d FIXTURE -- smpctl ARGUMENTS`.
    static func smpctl(
        _ arguments: [String], fixture: Fixture, timeout: TimeInterval = 30, file: StaticString = #filePath, line: UInt = #line
    ) async throws -> SMPCtlRun {
        let umockdevRun = try require("umockdev-run", package: "umockdev")
        let smpctl = try SMPCtl.executable()
        let (result, seconds) = try await offThePool(timeout: timeout) {
            try ProcessRunner.run(
                umockdevRun, ["-d", fixture.path, "--", smpctl] + arguments, environment: SMPCtl.isolated, timeout: timeout)
        }
        let run = SMPCtlRun(
            arguments: arguments, status: result.status, stdout: result.stdout, stderr: result.stderr, seconds: seconds,
            timedOut: result.timedOut)
        XCTAssertFalse(run.timedOut, "smpctl did not finish within \(timeout) s\n\(run)", file: file, line: line)
        return run
    }

    /// Runs `Tests/Fixtures/udev/hotplug.py ARGUMENTS` under umockdev-wrapper with the system
    /// python3 (umockdev's GI bindings), asserts that it exits 0 and returns its `RESULT` document
    /// (skips locally, fails in CI without umockdev or python3-gi).
    static func hotplug(
        _ arguments: [String], timeout: TimeInterval = 60, file: StaticString = #filePath, line: UInt = #line
    ) async throws -> JSONNode {
        let wrapper = try require("umockdev-wrapper", package: "umockdev")
        let python = "/usr/bin/python3"
        let probe = try ProcessRunner.run(
            python, ["-c", "import gi; gi.require_version('UMockdev', '1.0'); from gi.repository import UMockdev"], timeout: 60)
        if probe.status != 0 {
            try ExternalTool.unavailable(
                "\(python) cannot load umockdev's GI bindings (apt-get install python3-gi gir1.2-umockdev-1.0): \(probe.stderr)")
        }
        let script = fixtures.appendingPathComponent("hotplug.py").path
        let (result, seconds) = try await offThePool(timeout: timeout) {
            try ProcessRunner.run(wrapper, [python, script] + arguments, environment: SMPCtl.isolated, timeout: timeout)
        }
        let report = "hotplug.py \(arguments.joined(separator: " ")) → exit \(result.status)\(result.timedOut ? " (killed: too slow)" : ""), "
            + String(format: "%.2f s", seconds) + "\n\(result.stdout)\(result.stderr)"
        XCTAssertEqual(result.status, 0, report, file: file, line: line)
        let resultLine = try XCTUnwrap(result.stdout.split(separator: "\n").first { $0.hasPrefix("RESULT ") }, report, file: file, line: line)
        return JSONNode(try JSONSerialization.jsonObject(with: Data(resultLine.dropFirst("RESULT ".count).utf8)))
    }

    /// Runs a blocking program on a Dispatch thread, so that the test's cooperative pool stays free;
    /// returns its result and how long it took.
    static func offThePool(
        timeout: TimeInterval, _ body: @escaping @Sendable () throws -> ProcessRunner.Result
    ) async throws -> (ProcessRunner.Result, Double) {
        let outcome: Result<(ProcessRunner.Result, Double), any Error> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let start = DispatchTime.now()
                let result = Result { try body() }
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
                continuation.resume(returning: result.map { ($0, seconds) })
            }
        }
        return try outcome.get()
    }
}

/// Compares a JSON value with an expected one, member by member: nothing missing, nothing extra.
func assertJSON(_ node: JSONNode?, equals expected: Any, _ context: String, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(node?.description, JSONNode(expected).description, context, file: file, line: line)
}
