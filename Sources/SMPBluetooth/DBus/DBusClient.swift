import CDBus
import FoundationEssentials
import Synchronization
import SMP

/// A private connection to a D-Bus bus: method calls, signal subscriptions and exported objects.
///
/// One reader thread owns the connection's I/O: it drains every queued message before it blocks,
/// hands replies to the callers waiting for them, signals to their subscribers' streams and
/// method calls to exported objects, and fails calls whose time is up. A round trip therefore
/// never waits behind a signal. ``close()`` stops the thread and fails whatever is pending.
public final class DBusClient: Sendable {
    /// `$DBUS_SYSTEM_BUS_ADDRESS`, else the standard system bus socket.
    public static var systemBusAddress: String {
        ProcessInfo.processInfo.environment["DBUS_SYSTEM_BUS_ADDRESS"].flatMap { $0.isEmpty ? nil : $0 }
            ?? "unix:path=/var/run/dbus/system_bus_socket"
    }

    /// The bus address connected to.
    public let address: String
    /// This connection's unique name on the bus (`:1.42`).
    public let uniqueName: String
    private let core: DBusConnectionCore

    /// Connects to the bus at `address` and registers with it (`Hello`). This blocks for the
    /// handshake, which on a local socket takes well under a millisecond.
    public init(address: String = DBusClient.systemBusAddress) throws(DBusError) {
        self.address = address
        dbus_threads_init_default()
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let raw = dbus_connection_open_private(address, &error) else {
            throw DBusError(taking: &error, context: "cannot connect to \(address)")
        }
        let connection = DBusConnectionHandle(adopting: raw)
        dbus_connection_set_exit_on_disconnect(raw, 0)
        guard dbus_bus_register(raw, &error) != 0 else {
            throw DBusError(taking: &error, context: "the D-Bus bus at \(address) did not accept this client")
        }
        var descriptor: Int32 = -1
        guard dbus_connection_get_unix_fd(raw, &descriptor) != 0, descriptor >= 0 else {
            throw DBusError(name: DBusError.disconnected, message: "the D-Bus connection to \(address) has no socket to wait on")
        }
        uniqueName = dbus_bus_get_unique_name(raw).map { String(cString: $0) } ?? ""
        core = DBusConnectionCore(connection: connection, socket: descriptor)
        do {
            try core.start()
        } catch {
            throw DBusError(name: DBusError.disconnected, message: "cannot wait on the D-Bus connection to \(address): \(error.detail)")
        }
    }

    deinit { core.requestStop() }

    /// Calls a method and waits for its reply. Descriptors in the reply belong to the caller.
    ///
    /// - Throws: the peer's error reply, or `NoReply` after `timeout`, or `Disconnected`.
    public func call(
        destination: String, path: String, interface: String, member: String,
        arguments: [DBusValue] = [], timeout: Duration = .seconds(25)
    ) async throws(DBusError) -> [DBusValue] {
        let message = try DBusMessage.methodCall(destination: destination, path: path, interface: interface, member: member, arguments: arguments)
        return try await core.call(message, timeout: timeout, what: "\(interface).\(member) on \(path)")
    }

    /// Calls a method without waiting for (or wanting) a reply.
    public func send(destination: String, path: String, interface: String, member: String, arguments: [DBusValue] = []) throws(DBusError) {
        let message = try DBusMessage.methodCall(destination: destination, path: path, interface: interface, member: member, arguments: arguments)
        dbus_message_set_no_reply(message.pointer, 1)
        try core.send(message)
    }

    /// Subscribes to the signals a rule matches. The subscription starts before the bus is asked
    /// for them, so none is missed after this returns; it ends when the stream is dropped.
    public func signals(_ rule: DBusMatchRule) async throws(DBusError) -> AsyncStream<DBusSignal> {
        let (stream, continuation) = AsyncStream<DBusSignal>.makeStream()
        let id = core.subscribe(rule, continuation)
        continuation.onTermination = { [weak self] _ in
            self?.core.unsubscribe(id)
            try? self?.send(destination: Self.bus, path: Self.busPath, interface: Self.bus, member: "RemoveMatch", arguments: [.string(rule.text)])
        }
        do {
            _ = try await call(destination: Self.bus, path: Self.busPath, interface: Self.bus, member: "AddMatch", arguments: [.string(rule.text)])
        } catch {
            continuation.finish()
            throw error
        }
        return stream
    }

    /// Answers method calls to `path` with `handler` until ``unexport(path:)``.
    public func export(path: String, handler: @escaping DBusMethodHandler) throws(DBusError) {
        try DBusValueCoding.checkPath(path)
        core.export(path: path, handler: handler)
    }

    /// Stops answering calls to `path`.
    public func unexport(path: String) {
        core.export(path: path, handler: nil)
    }

    /// Closes the connection: the reader thread ends (this waits for it), pending calls fail
    /// with `Disconnected` and signal streams finish. Idempotent.
    public func close() async {
        await core.stop()
    }

    private static let bus = "org.freedesktop.DBus"
    private static let busPath = "/org/freedesktop/DBus"
}

extension DBusError {
    /// Takes the name and message out of a libdbus error and frees it.
    init(taking error: inout CDBus.DBusError, context: String) {
        let name = error.name.map { String(cString: $0) } ?? DBusError.disconnected
        let detail = error.message.map { String(cString: $0) } ?? ""
        dbus_error_free(&error)
        self.init(name: name, message: detail.isEmpty ? context : "\(context): \(detail)")
    }
}

/// Owns one reference to a libdbus connection; closes and releases it when released.
final class DBusConnectionHandle: @unchecked Sendable {
    // libdbus connections are thread-safe once dbus_threads_init_default() has run.
    let pointer: OpaquePointer

    init(adopting pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        dbus_connection_close(pointer)
        dbus_connection_unref(pointer)
    }
}
