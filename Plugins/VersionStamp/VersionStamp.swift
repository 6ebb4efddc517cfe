import Foundation
import PackagePlugin

/// Stamps `smpctl --version` with the release from the git tag and the commit.
///
/// A build command runs `stamp-version.sh` with `/bin/sh`; the script asks `git describe` and writes
/// `SMPCtlBuildVersion.swift` only when its text changes, so an unchanged version compiles nothing.
///
///     v0.2.0 tagged on this commit   0.2.0 (5b4b9b2)
///     14 commits after v0.2.0        0.2.0-dev.14+5b4b9b2
///     no tag (a fresh clone)         0.1.0-dev+5b4b9b2     (the release in VERSION)
///     files modified                 … -dirty after the commit
///     no .git (a source tarball)     0.1.0                 (VERSION alone)
///
/// SwiftPM asks this plugin for its commands only when it plans the build again (a changed
/// manifest, files added or removed), and a prebuild command runs only then too; so the command is
/// a build command whose inputs are what a new commit, tag or edit touches: git's HEAD log, index,
/// tags and packed refs, `VERSION`, and every source file of the package (for `-dirty`).
@main
struct VersionStamp: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        let output = context.pluginWorkDirectoryURL.appending(path: "SMPCtlBuildVersion.swift")
        let sources = context.package.targets.compactMap { $0 as? SourceModuleTarget }.flatMap { $0.sourceFiles.map(\.url) }
        let script = root.appending(path: "Plugins/VersionStamp/stamp-version.sh")
        let inputs = [script, root.appending(path: "VERSION")] + Self.gitFiles(in: root) + sources
        return [
            .buildCommand(
                displayName: "Stamping the smpctl version from git (or VERSION)",
                executable: URL(filePath: "/bin/sh"),
                arguments: [script.path(), root.path(), output.path()],
                inputFiles: inputs.filter { FileManager.default.fileExists(atPath: $0.path()) },
                outputFiles: [output]),
        ]
    }

    /// The files git changes on a commit, checkout, tag or `git add`: `logs/HEAD` and `index` of
    /// the work tree's git folder, `packed-refs` and `refs/tags` of the repository's (they differ
    /// in a linked work tree, whose `.git` is a file naming its folder).
    static func gitFiles(in root: URL) -> [URL] {
        let dotGit = root.appending(path: ".git")
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dotGit.path(), isDirectory: &isFolder) else { return [] }
        var gitFolder = dotGit
        var commonFolder = dotGit
        if !isFolder.boolValue {
            guard let text = try? String(contentsOf: dotGit, encoding: .utf8),
                  let line = text.split(separator: "\n").first(where: { $0.hasPrefix("gitdir: ") })
            else { return [] }
            let path = String(line.dropFirst("gitdir: ".count))
            gitFolder = path.hasPrefix("/") ? URL(filePath: path) : root.appending(path: path)
            commonFolder = gitFolder
            if let common = try? String(contentsOf: gitFolder.appending(path: "commondir"), encoding: .utf8) {
                let path = common.trimmingCharacters(in: .whitespacesAndNewlines)
                commonFolder = path.hasPrefix("/") ? URL(filePath: path) : gitFolder.appending(path: path)
            }
        }
        return [
            gitFolder.appending(path: "logs/HEAD"), gitFolder.appending(path: "HEAD"), gitFolder.appending(path: "index"),
            commonFolder.appending(path: "packed-refs"), commonFolder.appending(path: "refs/tags"),
        ]
    }
}
