import Foundation
import SMP
import SMPSimulator
import SMPTestSupport
import XCTest

/// The SUIT files of the SUIT tests, made once per test run by
/// `Tests/Scripts/suit/make_suit_set.py` with cbor2: envelopes and dfu_suit.zip packages.
enum SUITFiles {
    /// One file the script made.
    struct File: Decodable {
        var path: String
        var size: Int
        /// The manifest digest (hex), for envelopes and packages.
        var digest: String?
        var sequence: UInt64?
        /// The `file://` URIs the envelope asks for.
        var resources: [String]
    }

    private struct Manifest: Decodable {
        var files: [String: File]
    }

    private static let made = Result { () throws -> Manifest in
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("smpctl-suit-\(UUID().uuidString)")
        let run = try ProcessRunner.run(ExternalTool.python, [ExternalTool.script("suit/make_suit_set.py"), folder.path], timeout: 120)
        guard run.status == 0 else { throw ImgtoolImageSet.ScriptFailure(output: run.stdout + run.stderr) }
        return try JSONDecoder().decode(Manifest.self, from: Data(run.stdout.utf8))
    }

    /// A file by name (`dfu_suit.zip`, `app-seq2.suit`…); needs cbor2 (skips locally, fails in CI without it).
    static func file(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> File {
        try ExternalTool.requirePythonModules(["cbor2"])
        return try XCTUnwrap(try made.get().files[name], "make_suit_set.py made no \(name)", file: file, line: line)
    }

    /// Every file the script made, by name; needs cbor2 (skips locally, fails in CI without it).
    static func all() throws -> [String: File] {
        try ExternalTool.requirePythonModules(["cbor2"])
        return try made.get().files
    }

    /// A SUIT device that resets 50 ms after installing and is silent for `bootTime` while it boots.
    static func device(bootTime: Duration = .milliseconds(300), bufferSize: Int = 2048) -> VirtualDeviceConfiguration {
        var configuration = VirtualDeviceConfiguration.zephyrForTests
        configuration.bufferSize = bufferSize
        configuration.resetDelay = .milliseconds(50)
        configuration.bootTime = bootTime
        configuration.makeSUITDevice()
        return configuration
    }
}

extension VirtualDevice {
    /// The SUIT group's state.
    var suitGroup: SUITGroup? { group(.suit) as? SUITGroup }
}
