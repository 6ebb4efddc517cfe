/// Requests kept in flight together on one connection, for windowed transfers (docs/protocol/images.md §4.3): each
/// leaves in the order it was sent (``send(_:isolation:answer:)`` returns once the client has
/// queued it), and the outcomes come back in the order the answers arrive.
///
/// Made by ``SMPClient/withPipeline(of:isolation:_:)``, which ends what is still in flight when
/// its body returns or throws:
///
/// ```swift
/// try await client.withPipeline(of: Outcome.self) { pipeline in
///     for offset in offsets {
///         await pipeline.send(FileDownloadChunk(name: name, offset: offset)) { Outcome(offset, $0) }
///     }
///     while let outcome = await pipeline.next() { … }
/// }
/// ```
public struct SMPPipeline<Outcome: Sendable>: ~Copyable {
    /// The connection the requests go over.
    public let client: SMPClient
    private var group: ThrowingTaskGroup<Outcome, any Error>
    /// Signals that the request handed over last is queued, so that the next may follow.
    private let queued: AsyncStream<Void>.Continuation
    private var queuedSignals: AsyncStream<Void>.AsyncIterator

    init(client: SMPClient, group: ThrowingTaskGroup<Outcome, any Error>) {
        self.client = client
        self.group = group
        let (signals, queued) = AsyncStream<Void>.makeStream()
        self.queued = queued
        queuedSignals = signals.makeAsyncIterator()
    }

    /// Sends `request` as ``SMPClient/exchange(_:onQueued:)`` does (the device's answer, errors
    /// included) and returns once the client has queued it. `answer` turns the result into the
    /// outcome ``next(isolation:)`` delivers; it runs in its own child task, and may send more
    /// (a retry) through ``client``.
    public mutating func exchange(
        _ request: SMPRequest, isolation: isolated (any Actor)? = #isolation,
        answer: @escaping @Sendable (Result<SMPResponse, SMPError>) async -> Outcome
    ) async {
        let client = client
        let queued = queued
        group.addTask {
            let result: Result<SMPResponse, SMPError>
            do throws(SMPError) {
                result = .success(try await client.exchange(request) { queued.yield() })
            } catch {
                result = .failure(error)
            }
            return await answer(result)
        }
        await queuedSignals.next(isolation: isolation)
    }

    /// Sends `command` as ``SMPClient/send(_:onQueued:)`` does (busy answers retried, device
    /// errors thrown, the response decoded) and returns once the client has queued it. `answer`
    /// turns the result into the outcome ``next(isolation:)`` delivers, in its own child task.
    public mutating func send<Command: SMPCommand>(
        _ command: Command, isolation: isolated (any Actor)? = #isolation,
        answer: @escaping @Sendable (Result<Command.Response, SMPError>) async -> Outcome
    ) async {
        let client = client
        let queued = queued
        group.addTask {
            let result: Result<Command.Response, SMPError>
            do throws(SMPError) {
                result = .success(try await client.send(command) { queued.yield() })
            } catch {
                result = .failure(error)
            }
            return await answer(result)
        }
        await queuedSignals.next(isolation: isolation)
    }

    /// Runs `operation` alongside the requests in flight (it is not one of them: it does not
    /// wait for its turn); its outcome comes out of ``next(isolation:)`` like theirs.
    public mutating func add(_ operation: @escaping @Sendable () async -> Outcome) {
        group.addTask { await operation() }
    }

    /// The next outcome, in the order they are ready; nil when nothing is in flight.
    public mutating func next(isolation: isolated (any Actor)? = #isolation) async -> Outcome? {
        // The child tasks do not throw: their errors are part of their outcomes.
        (try? await group.next(isolation: isolation)) ?? nil
    }

    /// Cancels everything still in flight (their outcomes are then of no interest).
    public func cancelAll() {
        group.cancelAll()
    }

    /// Ends the pipeline: nothing more is sent, and what is in flight is cancelled.
    func finish() {
        queued.finish()
        group.cancelAll()
    }
}

extension SMPClient {
    /// Runs `body` with a pipeline of requests on this connection (``SMPPipeline``): every
    /// windowed transfer keeps its requests in flight with it. When `body` returns or throws,
    /// what is still in flight is cancelled and awaited.
    public func withPipeline<Outcome: Sendable, Value>(
        of outcome: Outcome.Type, isolation: isolated (any Actor)? = #isolation,
        _ body: (inout SMPPipeline<Outcome>) async throws -> Value
    ) async rethrows -> Value {
        try await withThrowingTaskGroup(of: Outcome.self, returning: Value.self) { group in
            var pipeline = SMPPipeline(client: self, group: group)
            defer { pipeline.finish() }
            return try await body(&pipeline)
        }
    }
}
