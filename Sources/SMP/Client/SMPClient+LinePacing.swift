/// Learning how fast a device takes console lines (``LinePacing``), on links that pace them.
extension SMPClient {
    /// The most lines a learning burst tries.
    static var largestLearningBurst: Int { 64 }

    /// Learns how many console lines the device takes back to back, unless the link does not pace
    /// lines or its pacing is already settled (given, remembered, or learned before): bursts of
    /// echo requests as large as the transfers will send (a window of requests that fill the
    /// device's buffer), written without pauses, then smaller ones, until a burst arrives whole.
    /// The largest burst that arrived becomes the pacing (with the link's gap between bursts), or
    /// no pacing when a whole window of the largest requests arrived, or the largest burst tried
    /// (`largestLearningBurst` lines, when the window takes more); if none did, the current
    /// pacing stays. Either way it is settled, and the transport may remember it for the next
    /// session. Costs a few round trips, and one short wait per burst that was lost.
    ///
    /// The client calls it before the first request that takes more lines than the pacing writes
    /// at once, outside transfers (which learn from their own chunks:
    /// ``prepareLinePacing(forTransferOf:)``), and before a transfer to a device with a single SMP
    /// buffer.
    public func tuneLinePacing() async {
        guard !linePacingTuned, let link = transport as? any SMPLinePacedTransport, !link.linePacingIsSettled else { return }
        linePacingTuned = true
        let messageSize = await maximumMessageSize()
        let window = await parameters().window
        let current = link.linePacing
        let linesPerMessage = link.lineCount(forMessageOfSize: messageSize)
        let needed = linesPerMessage * window
        var burst = min(Self.largestLearningBurst, needed)
        while burst > current.burst {
            let trial = LinePacing(burst: burst, gap: current.gap)
            link.setLinePacing(trial, settled: false)
            if await burstArrives(lines: burst, largest: messageSize, link: link) {
                logger.debug("\(transport.endpoint): the device takes \(burst) lines back to back")
                // A window of the largest requests arrives whole: answers free the device's
                // buffers as fast as new requests fill them, so no pacing is needed. So does the
                // largest burst tried: a device that takes that many lines back to back keeps up
                // with its line (and a later loss still slows the pacing down).
                let keepsUp = burst >= needed || burst == Self.largestLearningBurst
                link.setLinePacing(keepsUp ? .unpaced : trial, settled: true)
                return
            }
            burst /= 2
        }
        link.setLinePacing(current, settled: true)
    }

    /// Prepares the pacing for a transfer whose largest request is `messageSize` bytes. Where the
    /// link paces lines, its pacing is not settled and such a request takes more lines than the
    /// pacing writes at once, the transfer itself teaches it: its next chunk, sent alone, is
    /// written back to back (a burst of all its lines). Answered, that burst becomes the pacing
    /// (``settleLinePacingLearnedFromTransfer()``); lost, the echo that follows a request waiting
    /// alone shows it, and the client sends it again with half the burst, down to the pacing in
    /// force before. While ``isLearningLinePacing``, the transfer sends its chunks alone and
    /// settles the pacing on the first answer; no echo burst precedes the transfer.
    ///
    /// A device with a single SMP buffer (MCUboot's serial recovery) gets no echo after a waiting
    /// request, so a lost chunk would show only by its long first-chunk timeout: there the pacing
    /// is learned with echoes first (``tuneLinePacing()``), as for a single large request.
    public func prepareLinePacing(forTransferOf messageSize: Int) async {
        guard !linePacingTuned, let link = transport as? any SMPLinePacedTransport, !link.linePacingIsSettled,
              !link.linePacing.isUnpaced
        else { return }
        let lines = link.lineCount(forMessageOfSize: messageSize)
        guard lines > link.linePacing.burst else { return }
        if await parameters().bufferCount <= 1 {
            await tuneLinePacing()
            return
        }
        linePacingTuned = true
        linePacingBeforeTrial = link.linePacing
        logger.debug("\(transport.endpoint): learning the line pacing from this transfer: its next chunk goes alone, as one burst")
        link.setLinePacing(LinePacing(burst: lines, gap: link.linePacing.gap), settled: false)
    }

    /// The chunk sent alone after ``prepareLinePacing(forTransferOf:)`` was answered: the burst it
    /// last went in (slowed down by the losses before, if any) is settled, and the transport may
    /// remember it for the next session.
    public func settleLinePacingLearnedFromTransfer() {
        guard linePacingBeforeTrial != nil, let link = transport as? any SMPLinePacedTransport else { return }
        linePacingBeforeTrial = nil
        link.setLinePacing(link.linePacing, settled: true)
    }

    /// A transfer that ended before its trial chunk was answered (an error, a cancel): the burst
    /// it tried proved nothing, so the pacing in force before comes back, unsettled, and the next
    /// transfer learns again.
    func abandonLinePacingTrial() {
        guard let before = linePacingBeforeTrial, let link = transport as? any SMPLinePacedTransport else { return }
        linePacingBeforeTrial = nil
        linePacingTuned = false
        link.setLinePacing(before, settled: false)
    }

    /// Learns the pacing first when `request` takes more lines than the pacing writes at once
    /// (and it is not known yet, and the device has shown that it answers by reporting its
    /// MCUmgr parameters), so that large requests go out at the device's speed.
    func tuneLinePacingIfNeeded(for request: SMPRequest) async {
        guard !linePacingTuned, knownParameters?.source == .device, let link = transport as? any SMPLinePacedTransport,
              !link.linePacingIsSettled, !link.linePacing.isUnpaced
        else { return }
        let size = encodedSize(of: request)
        guard link.lineCount(forMessageOfSize: size) > link.linePacing.burst else { return }
        await tuneLinePacing()
    }

    /// Sends echo requests making up `lines` console lines without pauses; whether all of them
    /// were answered. The link answers in order, so an answer that overtakes an unanswered
    /// earlier request ends the trial at once: that request was lost.
    private func burstArrives(lines: Int, largest: Int, link: any SMPLinePacedTransport) async -> Bool {
        let sizes = echoSizes(lines: lines, largest: largest, link: link)
        let timeout = min(configuration.timeout, Self.learningTimeout)
        return await withPipeline(of: (index: Int, answered: Bool).self) { pipeline in
            for (index, size) in sizes.enumerated() {
                var request = echoRequest(ofSize: size)
                request.timeout = timeout
                await pipeline.exchange(request) { (index, (try? $0.get()) != nil) }
            }
            // A small echo after a pause, when the device has caught up: answered before the burst,
            // it shows the burst lost without waiting for the burst's timeouts.
            var trailerRequest = echoRequest(ofSize: 0)
            trailerRequest.timeout = timeout
            let trailer = trailerRequest
            let pause = Self.trailerPause
            let trailerIndex = sizes.count
            let time = self.time
            pipeline.add {
                try? await time.sleep(for: pause)
                return (trailerIndex, (try? await self.exchange(trailer)) != nil)
            }
            var answered = 0
            while let outcome = await pipeline.next() {
                guard outcome.answered, outcome.index == answered else {
                    pipeline.cancelAll()
                    return false
                }
                answered += 1
            }
            return true
        }
    }

    /// How long a learning burst may take to be answered: a device that takes longer (a slow
    /// line) is paced by its line anyway, and keeps the default pacing.
    static var learningTimeout: Duration { .seconds(1) }

    /// How long after a learning burst its trailing echo follows.
    static var trailerPause: Duration { .milliseconds(40) }

    /// Message sizes whose lines add up to `lines`: as many full messages as fit, then one for
    /// the rest.
    private func echoSizes(lines: Int, largest: Int, link: any SMPLinePacedTransport) -> [Int] {
        let perMessage = link.lineCount(forMessageOfSize: largest)
        var sizes = Array(repeating: largest, count: lines / perMessage)
        let rest = lines % perMessage
        if rest > 0 {
            // The largest message that takes `rest` lines.
            var size = largest
            while size > SMPHeader.size + 8, link.lineCount(forMessageOfSize: size) > rest { size -= 1 }
            sizes.append(size)
        }
        return sizes
    }

    /// The size of `request` on the wire (header included), as sent now.
    func encodedSize(of request: SMPRequest) -> Int {
        PendingRequest.encode(request, sequence: 0, version: protocolVersion).count
    }

    /// An echo request (not retry-safe: a loss must show) of about `size` bytes.
    private func echoRequest(ofSize size: Int) -> SMPRequest {
        var text = max(0, size - 16)
        var request = OSEcho(String(repeating: "x", count: text)).request
        while text > 0, encodedSize(of: request) > size {
            text -= 1
            request = OSEcho(String(repeating: "x", count: text)).request
        }
        request.isRetrySafe = false
        request.name = "line pacing probe (os echo)"
        return request
    }

    /// After a request was lost on a paced link that has answered before, writes more slowly
    /// from now on (and says so at notice level, each time it slows down).
    ///
    /// A loss while a transfer's chunk tries a burst (``prepareLinePacing(forTransferOf:)``) is
    /// how the pacing is learned: it halves the burst, but not below the pacing in force before
    /// the trial, is logged at debug level only, and returns true, so that the request sent again
    /// does not count it against its retries. A loss at that floor is an ordinary one.
    ///
    /// A link that never answered, whose lost requests each went out as one paced line, is not
    /// too fast but wrong (another port, framing or baud rate): writing more slowly would not
    /// change how those requests go out, so the pacing stays, and the timeout's hint says what to
    /// check. `lost`: the frames of the requests lost.
    @discardableResult
    func slowLinePacingAfterLoss(of lost: [[UInt8]]) -> Bool {
        guard let link = transport as? any SMPLinePacedTransport else { return false }
        if let before = linePacingBeforeTrial, link.linePacing.burst > before.burst {
            let half = link.linePacing.burst / 2
            let slower = half > before.burst ? LinePacing(burst: half, gap: link.linePacing.gap) : before
            link.setLinePacing(slower, settled: false)
            logger.debug("\(transport.endpoint): the burst tried was lost; writing console lines more slowly (\(slower))")
            return true
        }
        let unaffected = !link.linePacing.isUnpaced && lost.allSatisfy { link.lineCount(forMessageOfSize: $0.count) <= 1 }
        guard statistics.responses > 0 || !unaffected, let how = link.slowDownAfterLoss() else { return false }
        logger.notice("\(transport.endpoint): a request was lost; \(how)")
        return false
    }

    /// Whether a transfer's chunk is trying a burst whose answer settles the pacing.
    public var isLearningLinePacing: Bool { linePacingBeforeTrial != nil }
}
