/// The state of one upload: what the device acknowledged, which chunks are in flight, and what to
/// send next. Pure bookkeeping, driven by ``ChunkedUploader``.
struct UploadRun<Target: ChunkedUploadTarget> {
    /// What ``receive(_:)`` asks the uploader to do.
    enum Step { case `continue`, restart }

    let source: any UploadSource
    private(set) var sizer: ChunkSizer<Target>
    /// The alignment the caller asked for (1: none).
    private let requestedAlignment: Int
    /// What partial acknowledgements told about the device's write unit.
    private var writeUnit = WriteAlignmentEstimate()
    let window: Int
    let progress: @Sendable (UploadProgress) -> Void
    private let start = ContinuousClock.now

    /// The device's expected offset.
    private(set) var acknowledged: UInt64 = 0
    /// Where the next chunk starts.
    private var next: UInt64 = 0
    /// Chunks of the current generation that no acknowledgement covers yet.
    private var live: [UploadChunk] = []
    private var generation = 0
    private var stalls = 0
    private var restarts = 0
    private var chunksSent = 0
    private var bytesSent: UInt64 = 0
    /// Where this run started counting its own bytes (the resumed offset, else 0).
    private var baseline: UInt64 = 0
    private(set) var resumedFrom: UInt64?
    /// Whether the device ever answered other than in order from this run's own first chunk: it
    /// resumed, rewound, lost its state, or named an offset beyond what this run sent. Only a
    /// hash of the result then shows what it holds.
    private(set) var isIrregular = false
    /// The end of the furthest chunk this run sent.
    private var sentEnd: UInt64 = 0
    private(set) var match: Bool?
    private(set) var isComplete = false

    init(source: any UploadSource, sizer: ChunkSizer<Target>, window: Int, progress: @escaping @Sendable (UploadProgress) -> Void) {
        self.source = source
        self.sizer = sizer
        self.requestedAlignment = sizer.alignment
        self.window = max(1, window)
        self.progress = progress
    }

    var total: UInt64 { UInt64(source.count) }
    var elapsed: Double { (ContinuousClock.now - start).seconds }

    /// Counts a chunk of `length` data bytes as sent.
    mutating func recordSent(_ length: Int) {
        chunksSent += 1
        bytesSent += UInt64(length)
    }

    /// The device's write unit learned from partial acknowledgements (nil: none seen).
    var learnedAlignment: Int? { writeUnit.alignment }

    /// Takes the answer to a first chunk: an offset within the chunk means the device stored part
    /// of it (its write unit); any other offset than the chunk's end means the device resumed an
    /// upload of the same file (it wrote nothing then) — accepted only when `mayResume` (the
    /// chunk carried a `sha` the device resumes by), else the device continued an upload it
    /// still held, of unknown bytes, and the upload fails with
    /// ``TransferVerificationError/staleUpload(offset:firstChunkEnd:)``.
    mutating func accept(first answer: UploadAcknowledgement, mayResume: Bool = true) throws {
        guard answer.offset <= total else { throw ChunkedUploadError.offsetBeyondEnd(offset: answer.offset, total: total) }
        guard answer.offset > 0 || total == 0 else { throw ChunkedUploadError.noProgress(offset: 0) }
        let firstLength = UInt64(try sizer.length(at: 0, isFirst: true))
        sentEnd = max(sentEnd, firstLength)
        if answer.offset < firstLength {
            learnAlignment(offset: answer.offset, chunkStart: 0, chunkEnd: firstLength)
        } else if answer.offset != firstLength {
            guard mayResume else { throw TransferVerificationError.staleUpload(offset: answer.offset, firstChunkEnd: firstLength) }
            isIrregular = true
            resumedFrom = answer.offset
            baseline = answer.offset
        }
        generation += 1
        live = []
        acknowledged = answer.offset
        next = answer.offset
        finishIfDone(match: answer.match)
        progress(report())
    }

    /// Continues an upload the device already holds `offset` bytes of, without a first chunk.
    mutating func accept(resumedAt offset: UInt64) throws(ChunkedUploadError) {
        guard offset <= total else { throw .offsetBeyondEnd(offset: offset, total: total) }
        isIrregular = true
        sentEnd = offset
        resumedFrom = offset
        baseline = offset
        generation += 1
        live = []
        acknowledged = offset
        next = offset
        finishIfDone(match: nil)
        progress(report())
    }

    /// The data bytes of `chunk`.
    func data(of chunk: UploadChunk) throws -> [UInt8] {
        try source.read(offset: Int(chunk.offset), length: Int(chunk.end - chunk.offset))
    }

    /// The chunks to send now to fill the window, or one at a time while each goes `alone` (to
    /// learn the line pacing from its answer, ``SMPClient/prepareLinePacing(forTransferOf:)``).
    mutating func nextChunks(alone: Bool = false) throws(ChunkedUploadError) -> [UploadChunk] {
        let window = alone ? 1 : window
        var chunks: [UploadChunk] = []
        while live.count < window, next < total {
            let length = try sizer.length(at: next, isFirst: false)
            let chunk = UploadChunk(offset: next, end: next + UInt64(length), generation: generation)
            chunks.append(chunk)
            live.append(chunk)
            recordSent(length)
            next = chunk.end
            sentEnd = max(sentEnd, next)
        }
        return chunks
    }

    /// Takes a chunk's answer: ignored when superseded or already covered. An offset beyond the
    /// acknowledged one is progress, also when it falls short of the chunk's end (the device
    /// stored part of it, which teaches its write unit): the chunks in flight go on when they
    /// start there, else the upload continues from the device's offset. Any other offset is a
    /// stall: a rewind to it, or a restart when the device lost its state (offset 0). Only
    /// ``ChunkedUploader/stallLimit`` stalls in a row fail the upload.
    mutating func receive(_ outcome: ChunkOutcome) throws -> Step {
        let chunk = outcome.chunk
        guard chunk.generation == generation, let index = live.firstIndex(of: chunk) else { return .continue }
        live.remove(at: index)
        let answer = try outcome.result.get()
        guard answer.offset <= total else { throw ChunkedUploadError.offsetBeyondEnd(offset: answer.offset, total: total) }
        if answer.offset > sentEnd { isIrregular = true }
        if answer.offset > acknowledged {
            stalls = 0
            if answer.offset > chunk.offset, answer.offset < chunk.end {
                learnAlignment(offset: answer.offset, chunkStart: chunk.offset, chunkEnd: chunk.end)
            }
            acknowledged = answer.offset
            live.removeAll { $0.end <= acknowledged }
            if (live.first?.offset ?? next) != acknowledged { rewind(to: acknowledged) }
        } else {
            isIrregular = true
            stalls += 1
            guard stalls <= ChunkedUploader<Target>.stallLimit else { throw ChunkedUploadError.noProgress(offset: answer.offset) }
            rewind(to: answer.offset)
            if answer.offset == 0 {
                restarts += 1
                return .restart
            }
            acknowledged = answer.offset
        }
        finishIfDone(match: answer.match)
        progress(report())
        return .continue
    }

    /// Drops the chunks in flight (their answers are ignored) and sends the next from `offset`.
    private mutating func rewind(to offset: UInt64) {
        generation += 1
        live = []
        next = offset
    }

    /// Learns from a chunk the device stored only up to `offset` and aligns later chunk ends on
    /// the device's write unit (and the requested alignment).
    private mutating func learnAlignment(offset: UInt64, chunkStart: UInt64, chunkEnd: UInt64) {
        writeUnit.learn(offset: offset, chunkStart: chunkStart, chunkEnd: chunkEnd)
        guard let unit = writeUnit.alignment else { return }
        sizer.alignment = Self.leastCommonMultiple(requestedAlignment, unit)
    }

    private static func leastCommonMultiple(_ a: Int, _ b: Int) -> Int {
        var (x, y) = (max(1, a), max(1, b))
        while y != 0 { (x, y) = (y, x % y) }
        return max(1, a) / x * max(1, b)
    }

    /// The progress now.
    func report() -> UploadProgress {
        let seconds = elapsed
        let rate = UploadProgress.rate(bytes: acknowledged - min(acknowledged, baseline), seconds: seconds, done: acknowledged == total)
        return UploadProgress(
            acknowledged: acknowledged, total: total, bytesPerSecond: rate, chunksSent: chunksSent, bytesSent: bytesSent,
            resumedFrom: resumedFrom, restarts: restarts)
    }

    private mutating func finishIfDone(match: Bool?) {
        guard acknowledged == total else { return }
        isComplete = true
        self.match = match
    }
}
