/// A D-Bus failure: an error reply from the peer, or a local one (no bus, timeout, closed).
public struct DBusError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The D-Bus error name, e.g. `org.bluez.Error.Failed`.
    public var name: String
    /// The human-readable message that came with it.
    public var message: String

    /// Creates an error.
    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { message.isEmpty ? name : "\(name): \(message)" }

    /// No reply in time.
    public static let noReply = "org.freedesktop.DBus.Error.NoReply"
    /// Nobody owns the destination name (e.g. bluetoothd is not running).
    public static let serviceUnknown = "org.freedesktop.DBus.Error.ServiceUnknown"
    /// The object path does not exist.
    public static let unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
    /// The object has no such method.
    public static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
    /// The connection is closed or was lost.
    public static let disconnected = "org.freedesktop.DBus.Error.Disconnected"
    /// Arguments that cannot be encoded or decoded.
    public static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
    /// libdbus ran out of memory.
    public static let noMemory = "org.freedesktop.DBus.Error.NoMemory"

    /// The part after the last dot (`Failed` for `org.bluez.Error.Failed`).
    public var shortName: Substring { name.split(separator: ".").last ?? Substring(name) }
}
