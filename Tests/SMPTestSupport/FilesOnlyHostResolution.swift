import Foundation

/// Runs a program whose host names resolve from /etc/hosts only, so that a test naming an unknown
/// host (`*.invalid`, RFC 6761) sends no DNS query off the machine: in a ``MountNamespace``,
/// /etc/nsswitch.conf is bound to a file that says `hosts: files` (Tests/Fixtures/dns), so glibc
/// never loads its DNS module.
public enum FilesOnlyHostResolution {
    /// `program` with `arguments`, wrapped so; skips locally, fails in CI, where `unshare -rm`
    /// cannot run.
    public static func command(_ program: String, _ arguments: [String]) throws -> (program: String, arguments: [String]) {
        try MountNamespace.command(
            setUp: "mount --bind \"$0\" /etc/nsswitch.conf && exec \"$@\"",
            argument: ExternalTool.packageRoot.appendingPathComponent("Tests/Fixtures/dns/nsswitch-hosts-files-only.conf").path,
            program, arguments)
    }
}
