import CBOR

/// Runs a command line in the device's shell (shell group 9, command 0, write; docs/protocol/groups.md §10) and captures
/// what it printed. Never retried: the command may have effects.
///
/// Send it with `SMPClient.executeShell(_:)`, which also reads the legacy form of the answer:
/// a device built with `MCUMGR_GRP_SHELL_LEGACY_RC_RETURN_CODE` puts the command's return code in
/// `rc`, where every other group reports an SMP error.
public struct ShellExecute: SMPCommand {
    /// The command and its arguments, already split (see ``ShellWords``).
    public var argv: [String]

    /// Creates the request.
    public init(_ argv: [String]) { self.argv = argv }

    public var request: SMPRequest {
        SMPRequest(
            group: .shell, command: 0, operation: .write, payload: ["argv": .array(argv.map(CBOR.text))],
            isRetrySafe: false, name: "shell exec")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) -> ShellOutput {
        let output = try payload.text("o")
        if let ret = try payload.optionalInteger("ret") {
            return ShellOutput(output: output, returnCode: ret, isLegacyReturnCode: false)
        }
        guard let rc = try payload.optionalInteger("rc") else {
            throw SMPResponseError("the response has neither \"ret\" nor \"rc\" (the command's return code)")
        }
        return ShellOutput(output: output, returnCode: rc, isLegacyReturnCode: true)
    }
}

/// What a shell command printed and returned.
public struct ShellOutput: Sendable, Hashable {
    /// Everything the command printed (possibly cut at the device's shell output buffer).
    public var output: String
    /// The command's return code: 0 for success, usually a negative errno otherwise (-8 ENOEXEC
    /// for an unknown command).
    public var returnCode: Int64
    /// Whether the device put the return code in `rc` (legacy) rather than `ret`.
    public var isLegacyReturnCode: Bool

    /// Creates a result.
    public init(output: String, returnCode: Int64, isLegacyReturnCode: Bool = false) {
        self.output = output
        self.returnCode = returnCode
        self.isLegacyReturnCode = isLegacyReturnCode
    }
}
