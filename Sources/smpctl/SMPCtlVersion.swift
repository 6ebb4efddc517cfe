/// The tool's version, as `smpctl --version` prints it: `smpctl 0.2.0 (5b4b9b2)` on a tagged
/// commit, `smpctl 0.2.0-dev.14+5b4b9b2` after it, `-dirty` with modified files, and the release
/// in VERSION alone when built without git (Plugins/VersionStamp writes ``SMPCtlBuildVersion``).
enum SMPCtlVersion {
    static let current = "smpctl " + SMPCtlBuildVersion.text
}
