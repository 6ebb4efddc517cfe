/// A signal received on a ``DBusClient`` connection.
public struct DBusSignal: Sendable, Hashable {
    /// The sender's unique bus name (`:1.42`).
    public var sender: String
    /// The emitting object.
    public var path: String
    /// The signal's interface.
    public var interface: String
    /// The signal's name.
    public var member: String
    /// Its arguments.
    public var arguments: [DBusValue]
}

/// Which signals a subscription receives: the bus is asked for them with `AddMatch`, and each
/// subscriber then sees only those its own rule matches.
public struct DBusMatchRule: Sendable, Hashable {
    /// The well-known or unique name of the sender; the bus filters on it.
    public var sender: String?
    /// The signal's interface.
    public var interface: String?
    /// The signal's name.
    public var member: String?
    /// Exactly this object.
    public var path: String?
    /// This object or any below it.
    public var pathNamespace: String?

    /// Creates a rule; nil parts match anything.
    public init(sender: String? = nil, interface: String? = nil, member: String? = nil, path: String? = nil, pathNamespace: String? = nil) {
        self.sender = sender
        self.interface = interface
        self.member = member
        self.path = path
        self.pathNamespace = pathNamespace
    }

    /// The rule in the bus's match-rule syntax.
    public var text: String {
        let parts: [(String, String?)] = [
            ("sender", sender), ("interface", interface), ("member", member), ("path", path), ("path_namespace", pathNamespace),
        ]
        return (["type='signal'"] + parts.compactMap { key, value in value.map { "\(key)='\($0)'" } }).joined(separator: ",")
    }

    /// Whether a received signal matches. The sender is left to the bus: it resolves well-known
    /// names, and a signal carries only the unique name.
    public func matches(_ signal: DBusSignal) -> Bool {
        if let interface, interface != signal.interface { return false }
        if let member, member != signal.member { return false }
        if let path, path != signal.path { return false }
        if let pathNamespace, signal.path != pathNamespace, !signal.path.hasPrefix(pathNamespace == "/" ? "/" : pathNamespace + "/") {
            return false
        }
        return true
    }
}

/// A method call made to an object this process exports (``DBusClient/export(path:handler:)``).
public struct DBusMethodCall: Sendable {
    /// The caller's unique bus name.
    public var sender: String
    /// The object called.
    public var path: String
    /// The interface, when the caller named one.
    public var interface: String?
    /// The method.
    public var member: String
    /// Its arguments.
    public var arguments: [DBusValue]
}

/// Answers a method call to an exported object: the reply's arguments, or an error. It runs in a
/// task of its own, so it may wait (for a person to type a passkey); the reply goes out when it returns.
public typealias DBusMethodHandler = @Sendable (DBusMethodCall) async -> Result<[DBusValue], DBusError>
