/// Uploads a file in chunks, driven by the offsets the device acknowledges (docs/protocol/images.md §4.3, docs/protocol/transports.md §15.7).
///
/// The first chunk goes alone with the total length and the file's SHA-256 (under the target's
/// long timeout: the device may erase first). When the device recognises the `sha` it answers
/// with the offset it holds, and the upload resumes there. Then up to `window` chunks are in
/// flight, each as large as the message size allows. An answer beyond the acknowledged offset is
/// progress, also one that falls short of its chunk's end: a device writing whole flash units
/// (MCUboot's serial recovery) stores only the aligned part. The upload then continues from the
/// device's offset and ends later chunks on the write unit it learned (``UploadResult/learnedAlignment``),
/// so nothing is sent twice. Any other offset rewinds at once to it; answers to superseded chunks
/// are ignored. Only `stallLimit` (32) answers in a row without progress fail the upload. An offset
/// of 0 mid-upload means the device lost its state: the upload starts over with a first chunk. A
/// first chunk answered beyond its end without a `sha` to resume by is a stale upload the device
/// still held: the upload fails (``TransferVerificationError/staleUpload(offset:firstChunkEnd:)``),
/// and ``UploadResult/isIrregular`` tells the caller when only a hash can show what the device
/// holds. A lost answer does not stall the window: a later acknowledgement covers the chunk, and
/// the client resends retry-safe chunks after its timeout. The final `match`, when present, must
/// be true. Cancelling the calling task stops promptly and leaves the device's state for a resume.
public struct ChunkedUploader<Target: ChunkedUploadTarget>: Sendable {
    /// The connection to the device.
    public let client: SMPClient
    /// What the chunks write to.
    public let target: Target
    /// Window, alignment and restart.
    public let options: ChunkedUploadOptions

    /// Answers in a row without progress (rewinds, restarts) before the upload gives up.
    static var stallLimit: Int { 32 }

    /// Creates an uploader.
    public init(client: SMPClient, target: Target, options: ChunkedUploadOptions = ChunkedUploadOptions()) {
        self.client = client
        self.target = target
        self.options = options
    }

    /// Uploads `file`, calling `progress` after every acknowledged chunk. `sha` is the file's
    /// SHA-256 when the caller already has it (it is computed otherwise).
    public func upload(
        _ file: [UInt8], sha knownSHA: [UInt8]? = nil, progress: @escaping @Sendable (UploadProgress) -> Void = { _ in }
    ) async throws -> UploadResult {
        try await upload(from: file, sha: knownSHA ?? SHA256Hash.digest(file), progress: progress)
    }

    /// Uploads the bytes of `source`, read chunk by chunk, calling `progress` after every
    /// acknowledged chunk. `sha` goes into the first chunk as is (nil: none; a target without a
    /// hash field ignores it). `resumingAt` > 0 continues an upload the device already holds that
    /// many bytes of (checked by the caller) without a first chunk; should the device have lost
    /// them, it answers offset 0 and the upload starts over.
    public func upload(
        from source: some UploadSource, sha: [UInt8]?, resumingAt offset: UInt64 = 0,
        progress: @escaping @Sendable (UploadProgress) -> Void = { _ in }
    ) async throws -> UploadResult {
        guard source.count >= target.minimumFirstChunkLength else {
            throw ChunkedUploadError.fileTooShort(length: source.count, minimum: target.minimumFirstChunkLength)
        }
        let maximumMessageSize = await client.maximumMessageSize()
        var window = options.window ?? 0
        if window < 1 { window = await client.parameters().window }
        let sizer = ChunkSizer(
            target: target, maximumMessageSize: maximumMessageSize, alignment: max(1, options.alignment), total: UInt64(source.count), sha: sha)
        var run = UploadRun(source: source, sizer: sizer, window: window, progress: progress)
        do {
            if offset > 0 {
                try run.accept(resumedAt: offset)
                await client.prepareLinePacing(forTransferOf: maximumMessageSize)
            } else {
                if options.restart { _ = try await sendFirst(&run, sha: nil) }
                try run.accept(first: try await sendFirst(&run, sha: sha), mayResume: mayResume(sha: sha))
            }
            try await upload(&run, sha: sha)
        } catch {
            await client.abandonLinePacingTrial()
            if Task.isCancelled { throw CancellationError() }
            throw error
        }
        if run.match == false { throw ChunkedUploadError.hashMismatch }
        return UploadResult(
            progress: run.report(), match: run.match, window: window, seconds: run.elapsed, learnedAlignment: run.learnedAlignment,
            isIrregular: run.isIrregular)
    }

    /// Whether the device may answer a first chunk with a later offset: only a target that
    /// resumes by the `sha` the chunk carries.
    private func mayResume(sha: [UInt8]?) -> Bool { target.resumesBySHA && sha != nil }

    private func upload(_ run: inout UploadRun<Target>, sha: [UInt8]?) async throws {
        let client = client
        let target = target
        // Each chunk waits for its answer in its own child task; chunks leave in offset order.
        try await client.withPipeline(of: ChunkOutcome.self) { pipeline in
            while !run.isComplete {
                for chunk in try run.nextChunks(alone: await client.isLearningLinePacing) {
                    let command = target.command(offset: chunk.offset, data: try run.data(of: chunk), isFirst: false, totalLength: run.total, sha: nil)
                    let request = Self.request(for: command)
                    await pipeline.exchange(request) { response in
                        do {
                            let answer = try await Self.acknowledgement(of: response.get(), to: command, request: request, target: target, client: client)
                            return ChunkOutcome(chunk: chunk, result: .success(answer))
                        } catch {
                            return ChunkOutcome(chunk: chunk, result: .failure(error))
                        }
                    }
                }
                guard let outcome = await pipeline.next() else { break }
                try Task.checkCancellation()
                switch try run.receive(outcome) {
                case .continue:
                    if case .success = outcome.result { await client.settleLinePacingLearnedFromTransfer() }
                case .restart: try run.accept(first: try await sendFirst(&run, sha: sha), mayResume: mayResume(sha: sha))
                }
            }
        }
    }

    /// Sends the first chunk alone and returns the device's answer.
    ///
    /// The first chunk has a long timeout (the device may erase the slot before it answers), so a
    /// lost answer would cost all of it. An SMP server handles requests one at a time, in order,
    /// so once the client's usual timeout has passed, an echo answered while the chunk is still
    /// unanswered means the chunk's answer (or the chunk) was lost: it is sent again at once (the
    /// device recognises the `sha` and answers its offset).
    private func sendFirst(_ run: inout UploadRun<Target>, sha: [UInt8]?) async throws -> UploadAcknowledgement {
        let length = try run.sizer.length(at: 0, isFirst: true)
        let command = target.command(offset: 0, data: try run.source.read(offset: 0, length: length), isFirst: true, totalLength: run.total, sha: sha)
        var request = command.request
        if let timeout = options.firstChunkTimeout { request.timeout = timeout }
        await client.prepareLinePacing(forTransferOf: await client.encodedSize(of: request))
        var attempt = 0
        while true {
            attempt += 1
            run.recordSent(length)
            guard let response = try await firstAnswer(to: request, probing: attempt < Self.firstChunkAttempts) else { continue }
            await client.settleLinePacingLearnedFromTransfer()
            do {
                return target.acknowledgement(of: try command.decodeResponse(response.payload))
            } catch {
                throw SMPError.invalidResponse(SMPRequestSummary(request), error)
            }
        }
    }

    /// The request of a chunk after the first: a lost one shows in the next chunk's answer, and
    /// the engine rewinds to it, so it is not resent when overtaken.
    private static func request(for command: Target.Command) -> SMPRequest {
        var request = command.request
        request.isResentWhenOvertaken = false
        return request
    }

    /// Reads what the device's `response` to a chunk's `request` acknowledges: its offset, or for
    /// an error answer that the target reads as a rewind (a file upload's wrong offset), the
    /// offset it names. A busy answer is sent again with the client's back-off
    /// (``SMPClient/responseRetryingBusy(to:after:onQueued:)``) and the answer to the resend read
    /// the same way (while the chunk waited, the window's later chunks may have moved the device
    /// on: its wrong-offset answer is then a rewind too); other errors are thrown.
    private static func acknowledgement(
        of answer: SMPResponse, to command: Target.Command, request: SMPRequest, target: Target, client: SMPClient
    ) async throws -> UploadAcknowledgement {
        let response = try await client.responseRetryingBusy(to: request, after: answer)
        guard let error = response.deviceError else {
            do {
                return target.acknowledgement(of: try command.decodeResponse(response.payload))
            } catch {
                throw SMPError.invalidResponse(SMPRequestSummary(request), error)
            }
        }
        if let rewind = target.acknowledgement(ofError: error, payload: response.payload) { return rewind }
        throw SMPError.device(error, request: SMPRequestSummary(request))
    }

    /// How often a first chunk is sent because a probe showed its answer lost.
    static var firstChunkAttempts: Int { 4 }

    /// The answer to a first chunk, or nil when a probe showed that it was lost.
    private func firstAnswer(to request: SMPRequest, probing: Bool) async throws -> SMPResponse? {
        let client = client
        // A device with one buffer (MCUboot's serial recovery) is not probed: an echo written while
        // it erases would wait in its receive buffers, and on a raw link overrun them.
        let buffers = await client.parameters().bufferCount
        let probing = probing && buffers > 1
        return try await withThrowingTaskGroup(of: SMPResponse?.self) { group in
            group.addTask { try await client.checkedResponse(to: request) }
            if probing {
                group.addTask {
                    let patience = client.configuration.timeout
                    try await client.time.sleep(for: patience)
                    var echo = OSEcho("").request
                    echo.isRetrySafe = false
                    echo.timeout = min(patience, .seconds(1))
                    while true {
                        if (try? await client.exchange(echo)) != nil { return nil }
                        try await client.time.sleep(for: patience / 2)
                    }
                }
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
    }
}

/// A chunk in flight: its range and the generation (rewind count) it was sent in.
struct UploadChunk: Sendable, Hashable {
    var offset: UInt64
    var end: UInt64
    var generation: Int
}

/// A chunk's answer.
struct ChunkOutcome: Sendable {
    var chunk: UploadChunk
    var result: Result<UploadAcknowledgement, any Error>
}
