extension SMPClient {
    /// Makes the device crash as `kind` says. A device resets at once, so it usually never
    /// answers: no answer within the client's timeout is the crash that was asked for (false);
    /// true when the device answered before crashing. A device's refusal and a lost link throw.
    public func crash(_ kind: CrashTest.Kind) async throws -> Bool {
        do {
            try await send(CrashTest(kind))
            return true
        } catch SMPError.timeout {
            return false
        }
    }
}
