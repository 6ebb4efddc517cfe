import CDBus
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import DescriptorIO

/// The state and reader thread behind a ``DBusClient``. The thread holds this object, not the
/// client, so dropping the client stops the thread.
///
/// The thread is a ``PollingThread``, as every descriptor's is, but runs libdbus's loop rather than
/// a ``DescriptorChannel``: libdbus reads and writes the bus socket itself (authentication,
/// descriptors passed with messages), so the thread only waits in poll() for the socket (and
/// for room to write while libdbus has messages queued), a wake-up or the next call's deadline,
/// then lets libdbus do its I/O and dispatches what it parsed.
final class DBusConnectionCore: Sendable {
    private struct Pending {
        var deadline: ContinuousClock.Instant
        var what: String
        var continuation: CheckedContinuation<Result<[DBusValue], DBusError>, Never>
    }

    private struct Subscriber {
        var rule: DBusMatchRule
        var continuation: AsyncStream<DBusSignal>.Continuation
    }

    private struct State {
        var pending: [UInt32: Pending] = [:]
        var subscribers: [Int: Subscriber] = [:]
        var nextSubscriber = 0
        var objects: [String: DBusMethodHandler] = [:]
        /// Why the connection is closed, once it is.
        var closed: DBusError?
    }

    private let connection: DBusConnectionHandle
    private let socket: Int32
    private let state = Mutex(State())
    private let thread: Mutex<PollingThread?> = Mutex(nil)

    init(connection: DBusConnectionHandle, socket: Int32) {
        self.connection = connection
        self.socket = socket
    }

    /// Starts the reader thread.
    func start() throws(PollingThreadError) {
        let thread = try PollingThread { [self] thread in run(on: thread) }
        self.thread.withLock { $0 = thread }
    }

    private func wake() {
        thread.withLock { $0 }?.wake()
    }

    // MARK: - Callers

    func call(_ message: DBusMessage, timeout: Duration, what: String) async throws(DBusError) -> [DBusValue] {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<[DBusValue], DBusError>, Never>) in
            let refused: DBusError? = state.withLock { state in
                if let closed = state.closed { return closed }
                var serial: UInt32 = 0
                guard dbus_connection_send(connection.pointer, message.pointer, &serial) != 0 else {
                    return DBusError(name: DBusError.noMemory, message: "libdbus could not queue \(what)")
                }
                state.pending[serial] = Pending(deadline: .now + timeout, what: what, continuation: continuation)
                return nil
            }
            if let refused {
                continuation.resume(returning: .failure(refused))
            } else {
                wake()
            }
        }
        return try result.get()
    }

    func send(_ message: DBusMessage) throws(DBusError) {
        let refused: DBusError? = state.withLock { state in
            if let closed = state.closed { return closed }
            return dbus_connection_send(connection.pointer, message.pointer, nil) != 0
                ? nil : DBusError(name: DBusError.noMemory, message: "libdbus could not queue a message")
        }
        if let refused { throw refused }
        wake()
    }

    func subscribe(_ rule: DBusMatchRule, _ continuation: AsyncStream<DBusSignal>.Continuation) -> Int {
        let closed: Bool
        let id: Int
        (id, closed) = state.withLock { state in
            state.nextSubscriber += 1
            if state.closed == nil { state.subscribers[state.nextSubscriber] = Subscriber(rule: rule, continuation: continuation) }
            return (state.nextSubscriber, state.closed != nil)
        }
        if closed { continuation.finish() }
        return id
    }

    func unsubscribe(_ id: Int) {
        _ = state.withLock { $0.subscribers.removeValue(forKey: id) }
    }

    func export(path: String, handler: DBusMethodHandler?) {
        state.withLock { $0.objects[path] = handler }
    }

    /// Asks the thread to end; returns at once.
    func requestStop() {
        thread.withLock { $0 }?.stop()
    }

    /// Ends the thread and suspends until it has failed what was pending and closed the connection.
    func stop() async {
        let thread = thread.withLock { $0 }
        thread?.stop()
        await thread?.finished()
    }

    // MARK: - Reader thread

    private func run(on thread: PollingThread) {
        let raw = connection.pointer
        var reason = DBusError(name: DBusError.disconnected, message: "the D-Bus connection was closed")
        while true {
            while let popped = dbus_connection_pop_message(raw) {
                dispatch(DBusMessage(adopting: popped))
            }
            if thread.isStopping { break }
            guard dbus_connection_get_is_connected(raw) != 0 else {
                reason = DBusError(name: DBusError.disconnected, message: "the D-Bus bus closed the connection")
                break
            }
            let timeout = expireCalls()
            let writing = dbus_connection_has_messages_to_send(raw) != 0
            var descriptors = [pollfd(fd: socket, events: Int16(POLLIN) | (writing ? Int16(POLLOUT) : 0), revents: 0)]
            _ = thread.wait(&descriptors, timeout: timeout)
            _ = dbus_connection_read_write(raw, 0)
        }
        finish(reason)
    }

    /// Fails the calls whose time is up; returns how long `poll` may sleep (nil: for ever).
    private func expireCalls() -> Duration? {
        let now = ContinuousClock.now
        let (expired, next) = state.withLock { state -> ([Pending], ContinuousClock.Instant?) in
            let due = state.pending.filter { $0.value.deadline <= now }
            for serial in due.keys { state.pending.removeValue(forKey: serial) }
            return (Array(due.values), state.pending.values.map(\.deadline).min())
        }
        for call in expired {
            call.continuation.resume(returning: .failure(DBusError(name: DBusError.noReply, message: "no reply to \(call.what) in time")))
        }
        guard let next else { return nil }
        return max(.zero, next - now)
    }

    private func dispatch(_ message: DBusMessage) {
        switch message.type {
        case CDBUS_MESSAGE_TYPE_METHOD_RETURN, CDBUS_MESSAGE_TYPE_ERROR:
            guard let call = state.withLock({ $0.pending.removeValue(forKey: message.replySerial) }) else { return }
            if message.type == CDBUS_MESSAGE_TYPE_ERROR {
                call.continuation.resume(returning: .failure(message.error()))
            } else {
                call.continuation.resume(returning: Result { () throws(DBusError) in try message.arguments() })
            }
        case CDBUS_MESSAGE_TYPE_SIGNAL:
            deliver(message)
        case CDBUS_MESSAGE_TYPE_METHOD_CALL:
            answer(message)
        default:
            break
        }
    }

    private func deliver(_ message: DBusMessage) {
        guard let path = message.path, let interface = message.interface, let member = message.member,
            let arguments = try? message.arguments()
        else { return }
        let signal = DBusSignal(sender: message.sender ?? "", path: path, interface: interface, member: member, arguments: arguments)
        let targets = state.withLock { state in state.subscribers.values.filter { $0.rule.matches(signal) }.map(\.continuation) }
        for target in targets { target.yield(signal) }
    }

    /// Hands a method call to its object's handler in a task; the reply is queued when the handler
    /// returns, and the thread woken to send it.
    private func answer(_ call: DBusMessage) {
        let path = call.path ?? ""
        let handler = state.withLock { $0.objects[path] }
        let member = call.member
        Task { [self] in
            let result: Result<[DBusValue], DBusError>
            switch (handler, member, Result { () throws(DBusError) in try call.arguments() }) {
            case (let handler?, let member?, .success(let arguments)):
                result = await handler(DBusMethodCall(sender: call.sender ?? "", path: path, interface: call.interface, member: member, arguments: arguments))
            case (_?, _?, .failure(let error)):
                result = .failure(error)
            default:
                result = .failure(DBusError(name: DBusError.unknownObject, message: "no object at \(path)"))
            }
            reply(to: call, with: result)
        }
    }

    private func reply(to call: DBusMessage, with result: Result<[DBusValue], DBusError>) {
        guard dbus_message_get_no_reply(call.pointer) == 0 else { return }
        let reply = Result { () throws(DBusError) in
            switch result {
            case .success(let values): try DBusMessage.methodReturn(to: call, arguments: values)
            case .failure(let error): try DBusMessage.errorReply(to: call, error)
            }
        }
        guard case .success(let message) = reply, state.withLock({ $0.closed == nil }) else { return }
        _ = dbus_connection_send(connection.pointer, message.pointer, nil)
        wake()
    }

    private func finish(_ reason: DBusError) {
        let (pending, subscribers) = state.withLock { state in
            state.closed = reason
            defer {
                state.pending = [:]
                state.subscribers = [:]
                state.objects = [:]
            }
            return (Array(state.pending.values), Array(state.subscribers.values))
        }
        dbus_connection_close(connection.pointer)
        for call in pending { call.continuation.resume(returning: .failure(reason)) }
        for subscriber in subscribers { subscriber.continuation.finish() }
    }
}
