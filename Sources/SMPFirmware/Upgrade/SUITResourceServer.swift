import SMP

/// Serves the resources a SUIT device asks for while it processes an envelope (docs/protocol/suit.md §14): polls
/// (command 3) every `pollInterval`, uploads each requested `file://NAME` from the package
/// (command 4, in the device's stream session), and stops once the device has asked for nothing
/// for `pollWindow`, stops answering (it restarts to install), reports the envelope installed
/// (``installed``, checked after each empty poll), or does not implement the poll.
public struct SUITResourceServer: Sendable {
    /// What a run of the server did.
    public struct Outcome: Sendable {
        /// The URIs served, in order.
        public var served: [String] = []
        /// Each resource upload's result.
        public var uploads: [UploadResult] = []
        /// Whether the device stopped answering (it restarts).
        public var deviceWentSilent = false
        /// Whether ``SUITResourceServer/installed`` found the envelope installed.
        public var sawInstalled = false
    }

    /// The connection to the device.
    public var client: SMPClient
    /// Where the resources come from.
    public var package: SUITUpgradePackage
    /// How often to poll.
    public var pollInterval: Duration
    /// How long the device may ask for nothing before processing counts as done.
    public var pollWindow: Duration
    /// How long one poll waits for its answer (a silent device is restarting).
    public var pollTimeout: Duration
    /// Window and alignment of the resource uploads.
    public var upload: ChunkedUploadOptions
    /// Whether the device reports the envelope installed (a device that restarts quickly may
    /// never be seen silent; nil when it does not answer); without it, polls until the window ends.
    public var installed: (@Sendable (SMPClient) async -> Bool?)?

    /// Creates a server with the timing of `options`.
    public init(client: SMPClient, package: SUITUpgradePackage, options: UpgradeOptions = UpgradeOptions()) {
        self.client = client
        self.package = package
        pollInterval = options.suitPollInterval
        pollWindow = options.suitPollWindow
        pollTimeout = options.pollTimeout
        upload = options.upload
    }

    /// Serves until the device is done. `requested` hears of each request before its upload,
    /// `progress` of the upload's progress. A request the package cannot serve throws
    /// ``SUITMissingResourceError``.
    public func serve(
        requested: @escaping @Sendable (SUITResourceRequest, SUITUpgradeFile) -> Void = { _, _ in },
        progress: @escaping @Sendable (SUITUpgradeFile, UploadProgress) -> Void = { _, _ in }
    ) async throws -> Outcome {
        var outcome = Outcome()
        let clock = ContinuousClock()
        var quietSince = clock.now
        while true {
            let wanted: SUITResourceRequest?
            do {
                wanted = try await poll()
            } catch {
                switch error {
                case .timeout, .transport:
                    outcome.deviceWentSilent = true
                    return outcome
                case .device(let deviceError, _) where deviceError.legacyReturnCode == .notSupported:
                    // A device without image fetch never asks for resources (as Nordic's clients take it).
                    return outcome
                default:
                    throw error
                }
            }
            guard let wanted else {
                if let installed, await installed(client) == true {
                    outcome.sawInstalled = true
                    return outcome
                }
                if clock.now - quietSince >= pollWindow { return outcome }
                try await Task.sleep(for: pollInterval)
                continue
            }
            guard let file = package.resource(for: wanted) else {
                throw SUITMissingResourceError(resourceID: wanted.resourceID, available: package.resources.map { "file://\($0.fileName)" })
            }
            requested(wanted, file)
            let uploader = ChunkedUploader(client: client, target: SUITUploadTarget(kind: .resource(sessionID: wanted.sessionID)), options: upload)
            outcome.uploads.append(try await uploader.upload(file.bytes) { progress(file, $0) })
            outcome.served.append(wanted.resourceID)
            quietSince = clock.now
        }
    }

    /// One poll, sent once with the poll timeout.
    private func poll() async throws(SMPError) -> SUITResourceRequest? {
        var request = SUITPoll().request
        request.isRetrySafe = false
        request.timeout = pollTimeout
        let response = try await client.checkedResponse(to: request)
        do {
            return try SUITPoll().decodeResponse(response.payload)
        } catch {
            throw .invalidResponse(SMPRequestSummary(request), error)
        }
    }
}
