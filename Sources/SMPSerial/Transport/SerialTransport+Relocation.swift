import SMP

/// What to do after the port went away.
private enum LinkLoss {
    /// Nothing: we closed it, or it was an older opening.
    case ignore
    /// Fail the inbound stream, and with it every pending request.
    case fail(SMPTransportError)
    /// Wait for the device to come back.
    case relocate
}

extension SerialTransport {
    /// How long reopening may keep failing (a node that udev has not yet given its permissions,
    /// a device still starting) before the error counts.
    static let reopenPatience = Duration.seconds(5)

    /// The channel of opening `generation` has ended (EOF, EIO, a failed write).
    func linkEnded(generation: Int, detail: String) {
        let loss: LinkLoss = state.withLock { state in
            guard generation == state.generation else { return .ignore }
            switch state.phase {
            case .open(let connection):
                state.lost.append(connection)
                if relocate == nil {
                    let error = SerialPortFailure.disappeared(connection.port.path, detail: detail)
                    state.phase = .closed(error)
                    return .fail(error)
                }
                state.phase = .relocating
                state.lostGeneration = generation
                return .relocate
            case .relocating:
                // The port reopened during relocation went away before it was put to use (the
                // lost one may report its end twice: its channel, and a failed write).
                if generation != state.lostGeneration { state.endedDuringRelocation = detail }
                return .ignore
            case .opening, .closed:
                return .ignore
            }
        }
        switch loss {
        case .ignore:
            break
        case .fail(let error):
            logger.debug("\(error.message)")
            continuation.finish(throwing: error)
        case .relocate:
            logger.notice("\(endpoint): the device disappeared (\(detail)); waiting for it to come back")
            let task = Task { await self.bringBack() }
            state.withLock { state in
                if case .relocating = state.phase { state.relocation = task } else { task.cancel() }
            }
        }
    }

    /// Asks where the device is now, reopens it there and resumes the waiting sends; fails the
    /// link if it does not come back in time.
    private func bringBack() async {
        guard let relocate else { return }
        while true {
            let outcome: Result<SerialConnection, SMPTransportError>
            var reason: (any Error)?
            do {
                let connection = try await withTimeLimit(
                    relocationTimeout, timeoutError: { self.didNotComeBack() }, discardLate: { await Self.shut($0) }
                ) {
                    let path = try await relocate()
                    try Task.checkCancellation()
                    return try await self.reopen(path: path)
                }
                outcome = .success(connection)
            } catch {
                reason = error
                outcome = .failure(error as? SMPTransportError ?? SMPTransportError(
                    .closed, "\(endpoint): the device disappeared and did not come back: \(error)"))
            }
            let (installed, waiters, endedAgain) = install(outcome)
            guard installed else {
                // Closed while relocating.
                if case .success(let connection) = outcome { await Self.shut(connection) }
                return
            }
            if endedAgain, case .success(let connection) = outcome {
                await Self.shut(connection)
                logger.notice("\(endpoint): the device went away again right after reopening; waiting again")
                continue
            }
            for waiter in waiters { waiter.resume(returning: outcome) }
            switch outcome {
            case .success(let connection):
                logger.notice("\(endpoint): the device is back at \(connection.port.path)")
            case .failure(let error):
                continuation.finish(throwing: reason ?? error)
            }
            return
        }
    }

    /// Puts the outcome of relocation in force; returns whether a connection was installed, the
    /// sends to resume, and whether the new port already went away (to start over).
    private func install(
        _ outcome: Result<SerialConnection, SMPTransportError>
    ) -> (installed: Bool, waiters: [CheckedContinuation<Result<SerialConnection, SMPTransportError>, Never>], endedAgain: Bool) {
        state.withLock { state in
            guard case .relocating = state.phase else { return (false, [], false) }
            if state.endedDuringRelocation != nil {
                state.endedDuringRelocation = nil
                if case .success = outcome { return (true, [], true) }
            }
            let waiters = state.waiters
            state.waiters = []
            switch outcome {
            case .success(let connection):
                state.phase = .open(connection)
                state.statistics.reopens += 1
            case .failure(let error):
                state.phase = .closed(error)
            }
            state.relocation = nil
            return (true, waiters, false)
        }
    }

    /// Opens `path`, trying again for a little while: a node that just appeared may not have its
    /// permissions yet, and a device that just enumerated may not answer opens yet.
    private func reopen(path: String) async throws(SMPTransportError) -> SerialConnection {
        let clock = ContinuousClock()
        let deadline = clock.now + Self.reopenPatience
        while true {
            do {
                return try await connect(path: path)
            } catch {
                if clock.now >= deadline || Task.isCancelled { throw error }
                logger.debug("reopening \(path): \(error.message); trying again")
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    private func didNotComeBack() -> SMPTransportError {
        SerialPortFailure.disappeared(
            currentPath, detail: "it did not come back within \(relocationTimeout.components.seconds) s")
    }
}
