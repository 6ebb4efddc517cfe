/// Recovering lost requests quickly on a link that answers in order (a serial line).
///
/// A Zephyr or MCUboot device handles the requests of a serial link one at a time, in the order
/// they arrived. So when a request is answered while one sent before it is still unanswered, the
/// earlier one never arrived whole (its lines were dropped) and is sent again at once, rather
/// than after its timeout. A request waiting alone gets a small echo sent after it once the
/// usual round trip has passed: the echo's answer then proves it lost, or, arriving after it,
/// costs nothing.
extension SMPClient {
    /// The shortest wait before a request waiting alone is probed.
    static var minimumProbeDelay: Duration { .milliseconds(250) }

    /// Sends again every retry-safe request transmitted before `answered` and still unanswered.
    func recoverRequestsLost(before answered: PendingRequest) {
        let lost = pending.values.filter { entry in
            // An upload chunk overtaken by another chunk is the engine's to resend (it rewinds).
            let rewound = !entry.request.isResentWhenOvertaken && entry.request.group == answered.request.group
                && entry.request.command == answered.request.command
            return entry.transmission < answered.transmission && entry.retriesLeft > 0 && !rewound
        }
        guard !lost.isEmpty else { return }
        // One step slower for the whole burst that was lost, not one for each of its requests.
        let tried = slowLinePacingAfterLoss(of: lost.map(\.frame))
        for entry in lost.sorted(by: { $0.transmission < $1.transmission }) {
            if !tried { pending[entry.sequence]?.retriesLeft -= 1 }
            statistics.lost += 1
            statistics.retransmissions += 1
            logger.debug("seq \(entry.sequence) was lost (seq \(answered.sequence), sent after it, was answered first); sending again")
            transmit(entry.sequence)
        }
    }

    /// Notes an answered attempt, and folds its round trip into the smoothed estimate.
    func recordAnswer(to entry: PendingRequest) {
        answeredTransmission = max(answeredTransmission, entry.transmission)
        let sample = time.now() - entry.sentAt
        roundTrip = roundTrip.map { $0 * 0.875 + sample * 0.125 } ?? sample
    }

    /// The shortest wait before a transfer's chunk that tries a burst is probed
    /// (``isLearningLinePacing``): its loss is expected, and the probe should show it soon.
    static var minimumLearningProbeDelay: Duration { .milliseconds(50) }

    /// How long a request may wait alone before a probe follows it: four round trips.
    var probeDelay: Duration {
        max(isLearningLinePacing ? Self.minimumLearningProbeDelay : Self.minimumProbeDelay, (roundTrip ?? .zero) * 4)
    }

    /// Starts the prober when the link answers in order and none runs. It follows the newest
    /// request with an echo once that request has waited ``probeDelay``; it stops when nothing
    /// waits or a later request was answered, and does not start on
    /// devices with a single SMP buffer (MCUboot serial recovery), where a probe could crowd out
    /// the request, nor on links without message boundaries (raw framing,
    /// ``SMPTransport/partialMessageExpiry``): there a probe would complete a request whose tail was
    /// lost, and keep the device from dropping its start. An unanswered probe is followed by
    /// another, up to ``probesWithoutAnswer``.
    func probeWhileWaiting() {
        guard prober == nil, transport.answersInOrder, transport.partialMessageExpiry == nil, closedBecause == nil, !hasSingleBuffer
        else { return }
        prober = Task { await self.probeLoop() }
    }

    /// Whether the device is known to have one SMP buffer (MCUboot serial recovery): no probes
    /// there. A prober started before the parameters were known (while they were being read)
    /// stops once they show it.
    private var hasSingleBuffer: Bool { knownParameters?.bufferCount == 1 }

    /// How many probes in a row may go unanswered before the prober leaves the request to its
    /// timeout: an unanswered probe may still wait in the device's queue (behind a long flash
    /// erase), and each one there holds an SMP buffer.
    var probesWithoutAnswer: Int { max(1, min(2, (knownParameters?.bufferCount ?? 4) - 2)) }

    private func probeLoop() async {
        defer { prober = nil }
        var unanswered = 0
        while !hasSingleBuffer, let newest = pending.values.max(by: { $0.transmission < $1.transmission }) {
            // While the link is still writing, nothing can be judged lost yet.
            let due = newest.sentAt + probeDelay
            let now = time.now()
            if due > now || unwritten > 0 {
                do { try await time.sleepUntil(max(due, now + .milliseconds(10))) } catch { return }
                continue
            }
            // Something sent after it was answered already: it is lost, and was sent again if it may be.
            guard answeredTransmission < newest.transmission else { return }
            var echo = OSEcho("").request
            echo.isRetrySafe = false
            echo.timeout = min(configuration.timeout, .seconds(1))
            echo.name = "probe (os echo)"
            logger.debug("seq \(newest.sequence) unanswered after \(probeDelay); probing the link")
            // Unanswered too (lost as well, or the device is silent)? Probe again while it waits.
            if (try? await exchange(echo)) == nil {
                unanswered += 1
                if unanswered >= probesWithoutAnswer || Task.isCancelled { return }
            } else {
                unanswered = 0
            }
        }
    }
}
