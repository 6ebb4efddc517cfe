import Foundation
import SMPTestSupport
import XCTest

/// A scratch folder for the local-file tests, removed when the test ends.
struct LocalFilesTestFolder {
    let path: String

    init(_ test: XCTestCase) throws {
        path = try FixtureScratch.makeFolder("local-files").path
        let folder = path
        test.addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
    }

    /// The path of `name` in the folder.
    func path(_ name: String) -> String { path + "/" + name }

    /// Writes `bytes` to `name`; returns its path.
    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        try Data(bytes).write(to: URL(fileURLWithPath: path(name)))
        return path(name)
    }

    /// The bytes of `name` (nil when it cannot be read).
    func read(_ name: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path(name)).map(Array.init)
    }

    /// The names in the folder, sorted.
    var names: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }

    /// Makes a FIFO named `name`; returns its path.
    @discardableResult
    func fifo(_ name: String) throws -> String {
        guard mkfifo(path(name), 0o600) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return path(name)
    }

    /// Makes a symbolic link `name` to `target`; returns its path.
    @discardableResult
    func link(_ name: String, to target: String) throws -> String {
        guard symlink(target, path(name)) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return path(name)
    }

    /// The `st_mode` of what `name` is (the link itself for a link).
    func mode(_ name: String) -> mode_t? {
        var info = stat()
        return lstat(path(name), &info) == 0 ? info.st_mode : nil
    }
}
