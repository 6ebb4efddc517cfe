import Foundation
import PackagePlugin

/// Stamps `smpctl --version` with the release from the git tag and the commit.
///
/// A prebuild command (it runs before every build, so a new commit or tag is always seen) runs
/// ``script`` with `/bin/sh`; the script asks `git describe` and writes
/// `SMPCtlBuildVersion.swift` only when its text changes, so an unchanged version compiles nothing.
///
///     v0.2.0 tagged on this commit   0.2.0 (5b4b9b2)
///     14 commits after v0.2.0        0.2.0-dev.14+5b4b9b2
///     no tag (a fresh clone)         0.1.0-dev+5b4b9b2     (the release in VERSION)
///     files modified                 … -dirty after the commit
///     no .git (a source tarball)     0.1.0                 (VERSION alone)
@main
struct VersionStamp: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "version")
        return [
            .prebuildCommand(
                displayName: "Stamping the smpctl version from git (or VERSION)",
                executable: URL(filePath: "/bin/sh"),
                arguments: ["-c", Self.script, "version-stamp", context.package.directoryURL.path(), output.path()],
                outputFilesDirectory: output),
        ]
    }

    /// `$1`: the package directory; `$2`: the output directory.
    static let script = #"""
        set -u
        root=$1 out=$2
        mkdir -p "$out"
        release=$(sed -n '1{s/[[:space:]]//g;p;}' "$root/VERSION" 2>/dev/null)
        [ -n "$release" ] || release=0.0.0
        version=$release
        if [ -e "$root/.git" ] && commit=$(git -C "$root" rev-parse --short=7 HEAD 2>/dev/null); then
            dirty=
            git -C "$root" diff --quiet HEAD -- 2>/dev/null || dirty=-dirty
            if described=$(git -C "$root" describe --tags --long --match 'v[0-9]*' --match '[0-9]*' 2>/dev/null); then
                tag=${described%-*-g*}
                tag=${tag#v}
                count=${described%-g*}
                count=${count##*-}
                if [ "$count" = 0 ]; then version="$tag ($commit$dirty)"; else version="$tag-dev.$count+$commit$dirty"; fi
            else
                version="$release-dev+$commit$dirty"
            fi
        fi
        file="$out/SMPCtlBuildVersion.swift"
        text="/// Written by the VersionStamp plugin (Plugins/VersionStamp) before each build.
        enum SMPCtlBuildVersion {
            /// The release and commit this binary was built from.
            static let text = \"$version\"
        }"
        if [ "$(cat "$file" 2>/dev/null)" != "$text" ]; then printf '%s\n' "$text" > "$file.tmp" && mv "$file.tmp" "$file"; fi
        """#
}
