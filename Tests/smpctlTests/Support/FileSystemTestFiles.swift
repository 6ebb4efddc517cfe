import CBOR
import Foundation
import SMP
import SMPSimulator
import SMPTestSupport
import XCTest

/// A temporary folder for a file system test's local files, removed when the test ends, and
/// helpers to read the virtual device's files.
struct FileSystemTestFolder {
    let path: String

    /// A fresh folder.
    init(_ test: XCTestCase) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("smpctl-fs-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let folder = path
        test.addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
    }

    /// Writes `bytes` to `name` in the folder; returns its path.
    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let file = (path as NSString).appendingPathComponent(name)
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// The bytes of `name` in the folder (nil when missing).
    func read(_ name: String) -> [UInt8]? {
        FileManager.default.contents(atPath: (path as NSString).appendingPathComponent(name)).map(Array.init)
    }

    /// `count` reproducible pseudo-random bytes.
    static func content(_ count: Int, seed: UInt64 = 0xF11E) -> [UInt8] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    }
}

extension VirtualDevice {
    /// A file of the device's file system group.
    func file(_ name: String) -> [UInt8]? {
        (group(.fileSystem) as? FileSystemGroup)?.files[name]
    }
}

extension VirtualDeviceConfiguration {
    /// The default test device with these files in its file system.
    static func fileSystemDevice(files: [String: [UInt8]] = [:], bufferSize: Int = 2048) -> VirtualDeviceConfiguration {
        var configuration = VirtualDeviceConfiguration.zephyrForTests
        configuration.bufferSize = bufferSize
        configuration.fileSystem = SimulatedFileSystemConfiguration(files: files, directories: ["/lfs1/dir"])
        return configuration
    }
}

/// The file system group as usual, but its hash answers are off by one bit: `--verify` must fail.
struct LyingHashGroup: SimulatedGroup {
    var inner: FileSystemGroup
    var group: SMPGroup { .fileSystem }

    func implements(command: UInt8) -> Bool { inner.implements(command: command) }

    mutating func handle(_ request: SimulatedRequest, context: inout SimulatedDeviceContext) throws(SimulatedError) -> CBORMap {
        var answer = try inner.handle(request, context: &context)
        if request.command == FileSystemCommandID.hash, case .bytes(var output)? = answer["output"], !output.isEmpty {
            output[0] ^= 1
            answer["output"] = .bytes(output)
        }
        return answer
    }
}
