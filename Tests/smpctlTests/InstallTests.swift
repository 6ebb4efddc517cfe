import Foundation
import SMPTestSupport
import XCTest

/// `.ci/install` with the built (debug) binary into a temporary prefix: every file in place, the
/// installed smpctl and a man page work, and `--uninstall` leaves the prefix empty.
final class InstallTests: XCTestCase {
    func testInstallIntoAPrefixAndUninstall() async throws {
        let smpctl = try SMPCtl.executable()
        let bash = try MockedDevices.require("bash", package: "bash")
        let man = try MockedDevices.require("man", package: "man-db")
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("smpctl-install-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: prefix, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: prefix) }
        let script = ExternalTool.packageRoot.appendingPathComponent(".ci/install").path

        // The first run in a build folder builds argument-parser's generate-manual (about a minute).
        let install = try ProcessRunner.run(bash, [script, "--binary", smpctl, "--prefix", prefix.path], timeout: 900)
        XCTAssertEqual(install.status, 0, "install failed\n\(install.stdout)\n\(install.stderr)")
        XCTAssertTrue(install.stdout.contains("sudo udevadm control --reload"), "the udev step is printed, not run: \(install.stdout)")

        let files = try installedFiles(in: prefix)
        for path in [
            "bin/smpctl", "share/bash-completion/completions/smpctl", "share/zsh/site-functions/_smpctl",
            "share/fish/vendor_completions.d/smpctl.fish", "share/man/man1/smpctl.1", "lib/udev/rules.d/60-smpctl.rules",
            "share/smpctl/install-manifest", "share/doc/smpctl/README.md", "share/doc/smpctl/docs/upgrade.md",
            "share/doc/smpctl/docs/protocol/README.md",
        ] {
            XCTAssertTrue(files.contains(path), "\(path) not installed; installed: \(files.sorted())")
        }
        let pages = files.filter { $0.hasPrefix("share/man/man1/smpctl") && $0.hasSuffix(".1") }
        XCTAssertGreaterThan(pages.count, 60, "one man page per command: \(pages.sorted())")
        XCTAssertTrue(pages.contains { $0.contains("upgrade") } && pages.contains { $0.contains("echo") }, "\(pages.sorted())")
        let manifest = try String(contentsOf: prefix.appendingPathComponent("share/smpctl/install-manifest"), encoding: .utf8)
        XCTAssertEqual(manifest.split(separator: "\n").filter { $0.hasPrefix("file ") }.count, files.count - 1, "the manifest lists every file but itself")

        let version = try ProcessRunner.run(prefix.appendingPathComponent("bin/smpctl").path, ["--version"], timeout: 30)
        XCTAssertEqual(version.status, 0)
        XCTAssertTrue(version.stdout.hasPrefix("smpctl "), version.stdout)
        let bashCompletion = try String(contentsOf: prefix.appendingPathComponent("share/bash-completion/completions/smpctl"), encoding: .utf8)
        XCTAssertTrue(bashCompletion.contains("complete -o filenames -F __smpctl_complete_joined smpctl"))

        let page = try XCTUnwrap(pages.first { $0.contains("upgrade") })
        let shown = try ProcessRunner.run(
            man, ["-l", prefix.appendingPathComponent(page).path], environment: ["MANPAGER": "cat", "MANWIDTH": "100", "LANG": "C.UTF-8"],
            timeout: 60)
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertEqual(shown.stderr, "", "the page renders without warnings")
        XCTAssertTrue(shown.stdout.contains("NAME") && shown.stdout.contains("--dry-run"), shown.stdout)
        // The discussion keeps its lines: the examples and the exit codes each start a line.
        let ports = try ProcessRunner.run(
            man, ["-l", prefix.appendingPathComponent("share/man/man1/smpctl.ports.1").path],
            environment: ["MANPAGER": "cat", "MANWIDTH": "100", "LANG": "C.UTF-8"], timeout: 60)
        XCTAssertEqual(ports.stderr, "", "the page renders without warnings")
        let lines = ports.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for start in ["Examples: smpctl ports --all --probe", "smpctl ports --wait usb=2fe3:0100", "Exit codes: 64 several ports match"] {
            XCTAssertTrue(lines.contains { $0.hasPrefix(start) }, "no line starts with \(start):\n\(ports.stdout)")
        }

        let uninstall = try ProcessRunner.run(bash, [script, "--prefix", prefix.path, "--uninstall"], timeout: 60)
        XCTAssertEqual(uninstall.status, 0, uninstall.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: prefix.path), [], "uninstall leaves the prefix empty")
        let again = try ProcessRunner.run(bash, [script, "--prefix", prefix.path, "--uninstall"], timeout: 60)
        XCTAssertNotEqual(again.status, 0, "nothing left to uninstall is an error")
        XCTAssertTrue(again.stderr.contains("nothing to uninstall"), again.stderr)
    }

    /// Every file under `folder`, as paths relative to it.
    private func installedFiles(in folder: URL) throws -> Set<String> {
        let enumerator = try XCTUnwrap(FileManager.default.enumerator(atPath: folder.path))
        var files: Set<String> = []
        while let path = enumerator.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isFolder), !isFolder.boolValue {
                files.insert(path)
            }
        }
        return files
    }
}
