#!/bin/sh
# Writes the Swift file that `smpctl --version` prints (Plugins/VersionStamp runs it as a build
# command; Tests/smpctlTests/VersionStampTests runs it on scratch repositories).
#   sh stamp-version.sh PACKAGE_DIRECTORY OUTPUT_FILE
# The release and commit, from `git describe` (tags vX.Y.Z or X.Y.Z), else VERSION alone:
#   0.2.0 (5b4b9b2)  0.2.0-dev.14+5b4b9b2  0.1.0-dev+5b4b9b2  …-dirty  0.1.0
# The file is rewritten only when its text changes, so an unchanged version compiles nothing.
set -u
root=$1 file=$2
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
text="/// Written by the VersionStamp plugin (Plugins/VersionStamp) when git's state or a source changes.
enum SMPCtlBuildVersion {
    /// The release and commit this binary was built from.
    static let text = \"$version\"
}"
if [ "$(cat "$file" 2>/dev/null)" != "$text" ]; then printf '%s\n' "$text" > "$file.tmp" && mv "$file.tmp" "$file"; fi
