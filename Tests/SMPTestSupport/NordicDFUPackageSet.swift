import Foundation

/// Nordic DFU packages made by an independent encoder (`Tests/Scripts/package/make-nordic-dfu-package.py`:
/// Google's protobuf, `cryptography`, `zipfile`), once per test process, with its description of
/// each (`packages.json`) and the keys (`key.pem`, `public.pem`, `other-public.pem`).
public enum NordicDFUPackageSet {
    /// The script failed.
    public struct ScriptFailure: Error, CustomStringConvertible {
        /// What the script printed.
        public var output: String

        public var description: String { "make-nordic-dfu-package.py failed:\n\(output)" }
    }

    /// The folder holding the packages (skips locally without protobuf and cryptography, fails in CI).
    public static func folder(file: StaticString = #filePath, line: UInt = #line) throws -> URL {
        try ExternalTool.requirePythonModules(["google.protobuf", "cryptography"])
        return try made.get()
    }

    private static let made = Result { () throws -> URL in
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("smpctl-nordic-dfu-\(UUID().uuidString)")
        let run = try ProcessRunner.run(ExternalTool.python, [ExternalTool.script("package/make-nordic-dfu-package.py"), folder.path], timeout: 300)
        guard run.status == 0 else { throw ScriptFailure(output: run.stdout + run.stderr) }
        return folder
    }
}
