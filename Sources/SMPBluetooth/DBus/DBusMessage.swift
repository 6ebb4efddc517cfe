import CDBus

/// Owns one reference to a libdbus message; the reference is dropped when this is released.
///
/// Messages are built on one thread and then handed to the connection; libdbus locks a message
/// once it is sent, so sharing the wrapper afterwards is safe.
final class DBusMessage: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Adopts a reference the caller owns (a new message, or one popped from a connection).
    init(adopting pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit { dbus_message_unref(pointer) }

    /// A method call, with its arguments appended.
    static func methodCall(
        destination: String, path: String, interface: String, member: String, arguments: [DBusValue]
    ) throws(DBusError) -> DBusMessage {
        try DBusValueCoding.checkPath(path)
        guard let pointer = dbus_message_new_method_call(destination, path, interface, member) else {
            throw DBusError(name: DBusError.invalidArgs, message: "cannot build the call \(interface).\(member) on \(path)")
        }
        let message = DBusMessage(adopting: pointer)
        try message.append(arguments)
        return message
    }

    /// The success reply to an incoming method call.
    static func methodReturn(to call: DBusMessage, arguments: [DBusValue]) throws(DBusError) -> DBusMessage {
        guard let pointer = dbus_message_new_method_return(call.pointer) else {
            throw DBusError(name: DBusError.noMemory, message: "cannot build a method return")
        }
        let message = DBusMessage(adopting: pointer)
        try message.append(arguments)
        return message
    }

    /// The error reply to an incoming method call.
    static func errorReply(to call: DBusMessage, _ error: DBusError) throws(DBusError) -> DBusMessage {
        guard let pointer = dbus_message_new_error(call.pointer, error.name, error.message) else {
            throw DBusError(name: DBusError.noMemory, message: "cannot build an error reply")
        }
        return DBusMessage(adopting: pointer)
    }

    /// Appends arguments in order.
    func append(_ arguments: [DBusValue]) throws(DBusError) {
        var iterator = DBusMessageIter()
        dbus_message_iter_init_append(pointer, &iterator)
        for argument in arguments { try DBusValueCoding.append(argument, to: &iterator) }
    }

    /// Decodes every argument. File descriptors among them are new ones the caller owns.
    func arguments() throws(DBusError) -> [DBusValue] {
        var iterator = DBusMessageIter()
        guard dbus_message_iter_init(pointer, &iterator) != 0 else { return [] }
        return try DBusValueCoding.readAll(&iterator, depth: 0)
    }

    var type: Int32 { dbus_message_get_type(pointer) }
    var serial: UInt32 { dbus_message_get_serial(pointer) }
    var replySerial: UInt32 { dbus_message_get_reply_serial(pointer) }
    var path: String? { dbus_message_get_path(pointer).map { String(cString: $0) } }
    var interface: String? { dbus_message_get_interface(pointer).map { String(cString: $0) } }
    var member: String? { dbus_message_get_member(pointer).map { String(cString: $0) } }
    var sender: String? { dbus_message_get_sender(pointer).map { String(cString: $0) } }
    var errorName: String? { dbus_message_get_error_name(pointer).map { String(cString: $0) } }

    /// The error an error reply carries: its name and its first string argument.
    func error() -> DBusError {
        let text = (try? arguments())?.first?.stringValue ?? ""
        return DBusError(name: errorName ?? "org.freedesktop.DBus.Error.Failed", message: text)
    }
}
