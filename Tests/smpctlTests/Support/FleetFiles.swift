import Foundation
import XCTest

/// The files of many-device tests: targets files, report documents and a scratch folder.
extension XCTestCase {
    /// The JSON report at `path`.
    func reportDocument(_ path: String) throws -> JSONNode {
        JSONNode(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))))
    }

    /// A targets file in a new folder, one connection per line, each after its label when given.
    func targetsFile(_ connections: [String], labels: [String]? = nil) throws -> String {
        let path = try temporaryFolder().appendingPathComponent("targets.txt").path
        let lines = connections.enumerated().map { ((labels?[$0.offset]).map { "\($0) " } ?? "") + $0.element }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A new folder, removed when the test ends.
    func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("smpctl-fleet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }
}
