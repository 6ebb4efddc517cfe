import Foundation
import SMPTestSupport
import XCTest

/// `Plugins/VersionStamp/stamp-version.sh`, which writes the version `smpctl --version` prints, on
/// scratch repositories: without git, without tags, on a tag, after it, with modified files.
final class VersionStampTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("smpctl-version-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("package"), withIntermediateDirectories: true)
        try "1.2.3\n".write(to: folder.appendingPathComponent("package/VERSION"), atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs the script on the scratch package and returns the version it wrote.
    private func stamp(file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let script = ExternalTool.packageRoot.appendingPathComponent("Plugins/VersionStamp/stamp-version.sh").path
        let output = folder.appendingPathComponent("SMPCtlBuildVersion.swift")
        let run = try ProcessRunner.run("/bin/sh", [script, folder.appendingPathComponent("package").path, output.path], timeout: 30)
        XCTAssertEqual(run.status, 0, run.stderr, file: file, line: line)
        let text = try String(contentsOf: output, encoding: .utf8)
        let match = try XCTUnwrap(text.firstMatch(of: /static let text = "([^"]*)"/), text, file: file, line: line)
        return String(match.1)
    }

    /// Runs git in the scratch package; returns its standard output without the last newline.
    @discardableResult
    private func git(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let run = try ProcessRunner.run(
            "git", ["-C", folder.appendingPathComponent("package").path, "-c", "user.name=t", "-c", "user.email=t@example.invalid",
                    "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false"] + arguments, timeout: 30)
        XCTAssertEqual(run.status, 0, "git \(arguments): \(run.stderr)", file: file, line: line)
        return run.stdout.trimmingCharacters(in: .newlines)
    }

    func testWithoutGitTheReleaseIsVERSIONs() throws {
        XCTAssertEqual(try stamp(), "1.2.3")
    }

    func testTagsCommitsAndModifiedFiles() throws {
        try git(["init", "-q"])
        try git(["add", "VERSION"])
        try git(["commit", "-q", "-m", "first"])
        let first = try git(["rev-parse", "--short=7", "HEAD"])
        XCTAssertEqual(try stamp(), "1.2.3-dev+\(first)", "no tag: VERSION's release and the commit")

        try git(["tag", "v2.0.0"])
        XCTAssertEqual(try stamp(), "2.0.0 (\(first))", "on the tag")

        try git(["commit", "-q", "--allow-empty", "-m", "second"])
        let second = try git(["rev-parse", "--short=7", "HEAD"])
        XCTAssertEqual(try stamp(), "2.0.0-dev.1+\(second)", "one commit after the tag")

        try "9.9.9\n".write(to: folder.appendingPathComponent("package/VERSION"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try stamp(), "2.0.0-dev.1+\(second)-dirty", "a modified file")
    }

    func testAnUnchangedVersionLeavesTheFileAlone() throws {
        _ = try stamp()
        let output = folder.appendingPathComponent("SMPCtlBuildVersion.swift").path
        // A rewrite goes through a new file renamed over the old one: a new inode.
        let before = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: output)[.systemFileNumber] as? Int)
        _ = try stamp()
        let after = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: output)[.systemFileNumber] as? Int)
        XCTAssertEqual(before, after, "rewriting an unchanged file would recompile smpctl on every build")
        try "1.2.4\n".write(to: folder.appendingPathComponent("package/VERSION"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try stamp(), "1.2.4")
        let changed = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: output)[.systemFileNumber] as? Int)
        XCTAssertNotEqual(changed, after, "a changed version is written")
    }
}
