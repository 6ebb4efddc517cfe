#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A thread of its own for work that blocks in `poll()`: the one place where smpctl waits on
/// descriptors (a tty, a socket, the D-Bus connection) outside Swift's cooperative pool.
///
/// The thread runs `body` once; the body waits with ``wait(_:timeout:)``, which also returns when
/// the thread is woken (``wake()``) or asked to stop (``stop()``). Nothing here blocks the caller:
/// ``stop()`` only asks, and ``finished()`` suspends (it does not block a thread) until the body
/// has returned. ``DescriptorChannel`` is built on it; the D-Bus connection, whose socket libdbus
/// reads and writes itself, runs its loop on one directly.
public final class PollingThread: Sendable {
    /// Why ``wait(_:timeout:)`` returned.
    public enum Wakeup: Sendable, Equatable {
        /// A descriptor has events (see each `pollfd`'s `revents`).
        case ready
        /// ``wake()`` or ``stop()`` was called.
        case woken
        /// The timeout passed.
        case timedOut
        /// `poll()` failed with this errno.
        case failed(Int32)
    }

    private struct State {
        var stopRequested = false
        var finished = false
        var joiners: [CheckedContinuation<Void, Never>] = []
    }

    private let wakeup: WakeupPipe
    private let state = Mutex(State())

    /// Starts a thread that runs `body` with this object; the thread ends when `body` returns.
    ///
    /// - Throws: ``PollingThreadError`` when the process has no descriptor for the wake-up pipe or
    ///   cannot start a thread.
    public init(_ body: @escaping @Sendable (PollingThread) -> Void) throws(PollingThreadError) {
        guard let wakeup = WakeupPipe() else { throw PollingThreadError(detail: "could not create a pipe: \(systemErrorText(errno))") }
        self.wakeup = wakeup
        let work = ThreadWork { [self] in
            body(self)
            finish()
        }
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { argument in
            guard let argument else { return nil }
            Unmanaged<ThreadWork>.fromOpaque(argument).takeRetainedValue().run()
            return nil
        }, Unmanaged.passRetained(work).toOpaque())
        guard started == 0 else {
            Unmanaged.passUnretained(work).release()
            throw PollingThreadError(detail: "could not start a thread: \(systemErrorText(started))")
        }
        pthread_detach(thread)
    }

    /// Runs `body` on a thread of its own and suspends until it returns; cancelling the calling
    /// task stops the thread (the body sees ``isStopping``, and ``wait(_:timeout:)`` returns).
    /// For one blocking job: a connection attempt, waiting for a device to appear.
    public static func run<Success: Sendable>(
        _ body: @escaping @Sendable (PollingThread) throws -> Success
    ) async throws -> Success {
        let started = StartedThread()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Success, any Error>) in
                do {
                    started.set(try PollingThread { thread in continuation.resume(with: Result { try body(thread) }) })
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            started.stop()
        }
    }

    /// Whether ``stop()`` has been called.
    public var isStopping: Bool { state.withLock { $0.stopRequested } }

    /// Makes the current or next ``wait(_:timeout:)`` return ``Wakeup/woken``.
    public func wake() {
        wakeup.signal()
    }

    /// Asks the body to return (it sees ``isStopping``) and wakes it; returns at once.
    public func stop() {
        state.withLock { $0.stopRequested = true }
        wakeup.signal()
    }

    /// Suspends until the body has returned.
    public func finished() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state in
                if !state.finished { state.joiners.append(continuation) }
                return state.finished
            }
            if done { continuation.resume() }
        }
    }

    /// On the thread: waits in `poll()` for `descriptors`, the wake-up, or `timeout` (nil: no
    /// limit). Interrupted calls are retried; a wake-up is consumed.
    ///
    /// `poll()` counts whole milliseconds; a timeout shorter than one (a paced write's pause) is
    /// kept to the microsecond: a look at the descriptors without waiting, then a sleep for the
    /// rest (input arriving meanwhile waits in the kernel for the next call).
    public func wait(_ descriptors: inout [pollfd], timeout: Duration?) -> Wakeup {
        var all = descriptors + [pollfd(fd: wakeup.readEnd, events: Int16(POLLIN), revents: 0)]
        let brief = timeout.map { $0 > .zero && $0 < .milliseconds(1) } ?? false
        let milliseconds = brief ? 0 : timeout.map(Self.milliseconds) ?? -1
        var ready: Int32
        repeat { ready = poll(&all, nfds_t(all.count), milliseconds) } while ready < 0 && errno == EINTR
        if ready < 0 { return .failed(errno) }
        descriptors = Array(all.dropLast())
        if all[all.count - 1].revents != 0 {
            wakeup.drain()
            return .woken
        }
        if ready == 0, brief, let timeout {
            var pause = Glibc.timespec(tv_sec: 0, tv_nsec: Int(timeout.components.attoseconds / 1_000_000_000))
            var left = Glibc.timespec()
            while nanosleep(&pause, &left) < 0 && errno == EINTR { pause = left }
        }
        return ready == 0 ? .timedOut : .ready
    }

    /// A timeout in whole milliseconds, rounded up so that a wait never ends early.
    private static func milliseconds(_ duration: Duration) -> Int32 {
        guard duration > .zero else { return 0 }
        let (seconds, attoseconds) = duration.components
        return Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }

    private func finish() {
        let joiners = state.withLock { state in
            state.finished = true
            defer { state.joiners = [] }
            return state.joiners
        }
        for joiner in joiners { joiner.resume() }
    }
}

/// A ``PollingThread`` that could not be started.
public struct PollingThreadError: Error, Sendable {
    /// What failed, e.g. "could not create a pipe: Too many open files".
    public var detail: String
}

/// The thread of a ``PollingThread/run(_:)``, for its cancellation handler (which may come first).
private final class StartedThread: Sendable {
    private let state = Mutex<(thread: PollingThread?, cancelled: Bool)>((nil, false))

    func set(_ thread: PollingThread) {
        if state.withLock({ state in
            state.thread = thread
            return state.cancelled
        }) {
            thread.stop()
        }
    }

    func stop() {
        state.withLock { state in
            state.cancelled = true
            return state.thread
        }?.stop()
    }
}

/// What a new thread runs, handed to `pthread_create`.
private final class ThreadWork: Sendable {
    let body: @Sendable () -> Void

    init(body: @escaping @Sendable () -> Void) {
        self.body = body
    }

    func run() {
        body()
    }
}

/// `strerror` as a Swift string.
func systemErrorText(_ code: Int32) -> String {
    String(cString: strerror(code))
}
