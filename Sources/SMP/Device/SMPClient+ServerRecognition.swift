extension SMPClient {
    /// Finds out whether MCUboot's serial recovery or an application answers
    /// (``ServerRecognition/decide(_:)``): asks bootloader info and the image list, and only if
    /// they do not decide, application info and the MCUmgr parameters. What `known` already holds
    /// is not asked again.
    ///
    /// - Throws: ``SMPError`` when the device does not answer at all, or answers one of the
    ///   questions with an error other than "not supported".
    public func recogniseServer(knowing known: ServerRecognition.Observations = .init()) async throws(SMPError) -> ServerRecognition {
        var seen = known
        if seen.answersBootloaderInfo == nil { seen.answersBootloaderInfo = try await answersSupported(OSBootloaderName()) }
        if let decided = ServerRecognition.decide(seen) { return decided }
        if seen.images == nil && !seen.lacksImageGroup {
            do {
                seen.images = try await send(ImageState()).images
            } catch {
                guard Self.isNotSupported(error) else { throw error }
                seen.lacksImageGroup = true
            }
            if let decided = ServerRecognition.decide(seen) { return decided }
        }
        if seen.answersApplicationInfo == nil { seen.answersApplicationInfo = try await answersSupported(OSApplicationInfo()) }
        if seen.bufferCount == nil {
            let parameters = await parameters()
            seen.bufferCount = parameters.source == .device ? parameters.bufferCount : nil
        }
        return ServerRecognition.decide(seen) ?? ServerRecognition(role: .application, evidence: ["nothing points to MCUboot's serial recovery"])
    }

    /// Whether the device answers `command` (false: "not supported").
    private func answersSupported<Command: SMPCommand>(_ command: Command) async throws(SMPError) -> Bool {
        do {
            _ = try await send(command)
            return true
        } catch {
            if Self.isNotSupported(error) { return false }
            if case .invalidResponse = error { return true }
            throw error
        }
    }

    /// Whether `error` is the device's "not supported" (MGMT_ERR_ENOTSUP, in v1 or v2 form).
    public static func isNotSupported(_ error: SMPError) -> Bool {
        if case .device(let deviceError, _) = error, deviceError.legacyReturnCode == .notSupported { return true }
        return false
    }
}
