import SMP
import SMPSerial
import Synchronization

/// Frames received and not yet taken, and the one task waiting for the next (the engine sends
/// one request at a time), with a time limit on each wait.
final class FrameInbox: Sendable {
    /// A wait that ran out of time.
    struct Timeout: Error {}

    private struct Waiter {
        var id: Int
        var continuation: CheckedContinuation<[UInt8], any Error>
        var timer: Task<Void, Never>?
    }

    private struct State {
        var frames: [[UInt8]] = []
        var waiter: Waiter?
        var end: (any Error)?
        var nextID = 0
    }

    private let state = Mutex(State())

    /// Hands a received frame to the waiter, or keeps it.
    func deliver(_ frame: [UInt8]) {
        let waiter: Waiter? = state.withLock { state in
            guard let waiter = state.waiter else {
                state.frames.append(frame)
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.timer?.cancel()
        waiter?.continuation.resume(returning: frame)
    }

    /// No more frames will come: waits fail with `error` once the kept frames are taken.
    func finish(_ error: any Error) {
        let waiter: Waiter? = state.withLock { state in
            if state.end == nil { state.end = error }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.timer?.cancel()
        waiter?.continuation.resume(throwing: error)
    }

    /// Drops the frames kept (answers nobody waits for any more).
    func discardKept() -> Int {
        state.withLock { state in
            defer { state.frames.removeAll() }
            return state.frames.count
        }
    }

    /// The next frame, waiting at most `timeout`.
    ///
    /// - Throws: ``Timeout``, the error given to ``finish(_:)``, or `CancellationError`.
    func next(timeout: Duration) async throws -> [UInt8] {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[UInt8], any Error>) in
                let immediate: Result<[UInt8], any Error>? = state.withLock { state in
                    if !state.frames.isEmpty { return .success(state.frames.removeFirst()) }
                    if let end = state.end { return .failure(end) }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.waiter = Waiter(id: id, continuation: continuation)
                    return nil
                }
                if let immediate {
                    continuation.resume(with: immediate)
                    return
                }
                let timer = Task { [self] in
                    try? await Task.sleep(for: timeout)
                    if !Task.isCancelled { abandon(id, with: Timeout()) }
                }
                let stillWaiting = state.withLock { state in
                    guard state.waiter?.id == id else { return false }
                    state.waiter?.timer = timer
                    return true
                }
                if !stillWaiting { timer.cancel() }
            }
        } onCancel: {
            abandon(id, with: CancellationError())
        }
    }

    /// Ends wait `id` with `error`, if it is still waiting.
    private func abandon(_ id: Int, with error: any Error) {
        let waiter: Waiter? = state.withLock { state in
            guard state.waiter?.id == id else { return nil }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.timer?.cancel()
        waiter?.continuation.resume(throwing: error)
    }
}

extension FrameInbox {
    /// Starts a task that SLIP-decodes what `link` receives into this inbox (frames longer than
    /// `maximumFrameSize` are dropped); when the link ends, waits fail with what `ended` makes of
    /// the reason (nil: the link was closed).
    func read(_ link: SerialByteLink, maximumFrameSize: Int, ended: @escaping @Sendable (SMPTransportError?) -> any Error) -> Task<Void, Never> {
        Task {
            var decoder = SLIPDecoder(maximumFrameSize: maximumFrameSize)
            do {
                for try await bytes in link.incoming {
                    for frame in decoder.feed(bytes) { deliver(frame) }
                }
                finish(ended(nil))
            } catch let error as SMPTransportError {
                finish(ended(error))
            } catch {
                finish(ended(SMPTransportError(.closed, "serial:\(link.path): \(error)")))
            }
        }
    }
}
