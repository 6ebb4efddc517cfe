import Foundation

/// Real MCUboot images made by imgtool through `Tests/Scripts/image/make_images.py` in a fresh
/// temporary folder; returns the script's JSON manifest of what it made.
public enum ImgtoolImageSet {
    /// make_images.py failed.
    public struct ScriptFailure: Error, CustomStringConvertible {
        /// What the script printed.
        public var output: String

        /// Creates a failure.
        public init(output: String) { self.output = output }

        public var description: String { "an image script failed:\n\(output)" }
    }

    /// Runs the script (check `ExternalTool.requirePythonModules(["imgtool"])` first).
    public static func make() throws -> Data {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("smpctl-images-\(UUID().uuidString)")
        let run = try ProcessRunner.run(ExternalTool.python, [ExternalTool.script("image/make_images.py"), folder.path], timeout: 300)
        guard run.status == 0 else { throw ScriptFailure(output: run.stdout + run.stderr) }
        return Data(run.stdout.utf8)
    }
}
