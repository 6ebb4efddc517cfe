import Foundation
import SMP
import SMPSimulator
import SMPTestSupport
import XCTest

/// The firmware files of the upgrade tests, made once per test run by
/// `Tests/Scripts/image/make_upgrade_set.py` with imgtool: images and SDK-like zips.
enum UpgradeFiles {
    /// One file the script made.
    struct File: Decodable {
        var path: String
        var version: String?
        /// The image hash the device lists (hex), nil for packages.
        var hash: String?
        var size: Int
    }

    private struct Manifest: Decodable {
        var files: [String: File]
    }

    /// The slot size the images are made for, and the virtual devices use.
    static let slotSize = 0x40000
    /// The flash address of image 0's slot 0 (DirectXIP binaries are linked for it and the next slot).
    static let flashBase: UInt64 = 0x10000

    private static let made = Result { () throws -> Manifest in
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("smpctl-upgrade-\(UUID().uuidString)")
        let run = try ProcessRunner.run(
            ExternalTool.python, [ExternalTool.script("image/make_upgrade_set.py"), folder.path, String(slotSize), String(flashBase)],
            timeout: 300)
        guard run.status == 0 else { throw ImgtoolImageSet.ScriptFailure(output: run.stdout + run.stderr) }
        return try JSONDecoder().decode(Manifest.self, from: Data(run.stdout.utf8))
    }

    /// A file by name (`app-v2`, `multi.zip`…); needs imgtool (skips locally, fails in CI without it).
    static func file(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> File {
        try ExternalTool.requirePythonModules(["imgtool"])
        return try XCTUnwrap(try made.get().files[name], "make_upgrade_set.py made no \(name)", file: file, line: line)
    }

    /// A device with the image group sized for these files.
    static func device(
        images: Int = 1, mode: MCUbootMode = .swapUsingMove, resetDelay: Duration = .milliseconds(50), bootTime: Duration = .zero
    ) -> VirtualDeviceConfiguration {
        var configuration = VirtualDeviceConfiguration.zephyrForTests
        configuration.bootloaderMode = mode
        configuration.resetDelay = resetDelay
        configuration.bootTime = bootTime
        var imageConfiguration = SimulatedImageConfiguration(imageCount: images, slotSize: slotSize)
        imageConfiguration.flashBase = flashBase
        configuration.images = imageConfiguration
        return configuration
    }
}
