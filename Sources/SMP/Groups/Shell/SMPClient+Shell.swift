import CBOR

extension SMPClient {
    /// Runs `argv` in the device's shell and returns its output and return code (docs/protocol/groups.md §10).
    ///
    /// A non-zero return code is the command's result, not an error. A response with the output
    /// field `o` is a command result even when it carries `rc` (the legacy return-code form);
    /// without `o`, an `rc` or `err` is the device refusing the request (EMPTY_COMMAND,
    /// COMMAND_TOO_LONG, no shell group…) and is thrown as ``SMPError/device(_:request:)``.
    ///
    /// A shell command may change the device, so a request whose answer is lost is not sent
    /// again, unless `repeatable` says that running the command twice does no harm
    /// (`kernel uptime`, `device list`…).
    public func executeShell(_ argv: [String], repeatable: Bool = false) async throws(SMPError) -> ShellOutput {
        let command = ShellExecute(argv)
        var request = command.request
        if repeatable { request.isRetrySafe = true }
        let response = try await exchange(request)
        let payload = response.payload
        let isCommandResult = payload["o"] != nil && payload["err"] == nil
        if !isCommandResult, let error = response.deviceError {
            throw .device(error, request: SMPRequestSummary(request))
        }
        do {
            return try command.decodeResponse(payload)
        } catch {
            throw .invalidResponse(SMPRequestSummary(request), error)
        }
    }
}
