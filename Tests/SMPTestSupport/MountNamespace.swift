import Foundation

/// Runs a program in a user and mount namespace of its own (`unshare -rm`), after a shell script
/// that mounts what the program is to see in place of the machine's files (a configuration, a
/// folder it would write into), so that a test changes nothing outside it.
public enum MountNamespace {
    /// The command that runs `program` with `arguments` after `script`, as
    /// `unshare -rm /bin/sh -c SCRIPT ARGUMENT PROGRAM ARGUMENTS…`: the script sees `argument` as
    /// `$0` and ends with `exec "$@"`. Skips locally, fails in CI, where `unshare -rm` cannot run
    /// (user namespaces disabled).
    public static func command(
        setUp script: String, argument: String, _ program: String, _ arguments: [String]
    ) throws -> (program: String, arguments: [String]) {
        if case .failure(let failure) = available { try ExternalTool.unavailable(failure.description) }
        return (unshare, ["-rm", "/bin/sh", "-c", script, argument, program] + arguments)
    }

    private static let unshare = "/usr/bin/unshare"

    /// Whether `unshare -rm` works here (checked once).
    private static let available: Result<Void, SetupFailure> = {
        guard FileManager.default.isExecutableFile(atPath: unshare) else {
            return .failure(SetupFailure(description: "\(unshare) is missing (apt-get install util-linux)"))
        }
        let probe = try? ProcessRunner.run(unshare, ["-rm", "true"], timeout: 30)
        guard probe?.status == 0 else {
            return .failure(SetupFailure(description: "unshare -rm (user namespaces) does not work here: \(probe?.stderr ?? "")"))
        }
        return .success(())
    }()

    /// Why programs cannot run in a namespace of their own here.
    private struct SetupFailure: Error, CustomStringConvertible {
        var description: String
    }
}
