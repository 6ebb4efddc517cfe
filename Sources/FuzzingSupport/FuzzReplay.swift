import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The normal build of a fuzzer: replays inputs through the same check as the fuzzer, for
/// regression corpora and crash reproducers.
///
///     TOOL FILE_OR_DIRECTORY...
///
/// Directories are read one level deep, files in name order. Exits 0 when every input passed,
/// 2 on a usage or I/O error; a failed check traps (non-zero exit, message on stderr).
public enum FuzzReplay {
    /// Replays the files named on the command line through `check`.
    public static func run(tool: String, check: ([UInt8]) -> Void) {
        let paths = CommandLine.arguments.dropFirst()
        guard !paths.isEmpty else { fail("usage: \(tool) FILE_OR_DIRECTORY...") }
        var count = 0
        for path in paths {
            for file in inputs(at: path, tool: tool) {
                guard let data = FileManager.default.contents(atPath: file) else { fail("\(tool): cannot read \(file)") }
                check([UInt8](data))
                count += 1
            }
        }
        print("\(tool): \(count) input\(count == 1 ? "" : "s") passed")
    }

    private static func inputs(at path: String, tool: String) -> [String] {
        guard let directory = isDirectory(path) else { fail("\(tool): no such file or directory: \(path)") }
        guard directory else { return [path] }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { fail("\(tool): cannot list \(path)") }
        return names.sorted().map { path + "/" + $0 }.filter { isDirectory($0) == false }
    }

    /// Whether `path` is a folder (after links); nil when there is nothing there.
    private static func isDirectory(_ path: String) -> Bool? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT == S_IFDIR
    }

    private static func fail(_ message: String) -> Never {
        var line = message + "\n"
        line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
        exit(2)
    }
}
