import Foundation

/// Runs a program whose host names resolve from /etc/hosts only, so that a test naming an unknown
/// host (`*.invalid`, RFC 6761) sends no DNS query off the machine: the program runs in a user and
/// mount namespace of its own (`unshare -rm`) where /etc/nsswitch.conf is bound to a file that
/// says `hosts: files` (Tests/Fixtures/dns), so glibc never loads its DNS module.
public enum FilesOnlyHostResolution {
    /// `program` with `arguments`, wrapped so; skips locally, fails in CI, where `unshare -rm`
    /// cannot run (user namespaces disabled).
    public static func command(
        _ program: String, _ arguments: [String], file: StaticString = #filePath, line: UInt = #line
    ) throws -> (program: String, arguments: [String]) {
        let configuration: String
        switch prepared {
        case .success(let path): configuration = path
        case .failure(let error): try ExternalTool.unavailable("\(error)")
        }
        let bind = "mount --bind \"$0\" /etc/nsswitch.conf && exec \"$@\""
        return (unshare, ["-rm", "/bin/sh", "-c", bind, configuration, program] + arguments)
    }

    private static let unshare = "/usr/bin/unshare"

    /// Tests/Fixtures/dns/nsswitch-hosts-files-only.conf, once `unshare -rm` was seen to work here.
    private static let prepared: Result<String, SetupFailure> = {
        guard FileManager.default.isExecutableFile(atPath: unshare) else {
            return .failure(SetupFailure(description: "\(unshare) is missing (apt-get install util-linux)"))
        }
        let probe = try? ProcessRunner.run(unshare, ["-rm", "true"], timeout: 30)
        guard probe?.status == 0 else {
            return .failure(SetupFailure(
                description: "unshare -rm (user namespaces) does not work here, so a name cannot be resolved without DNS: \(probe?.stderr ?? "")"))
        }
        return .success(ExternalTool.packageRoot.appendingPathComponent("Tests/Fixtures/dns/nsswitch-hosts-files-only.conf").path)
    }()

    /// Why programs cannot be run with files-only host resolution here.
    private struct SetupFailure: Error, CustomStringConvertible {
        var description: String
    }
}
