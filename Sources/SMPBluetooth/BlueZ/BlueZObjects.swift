/// BlueZ's object tree as this client knows it: `GetManagedObjects` kept current with
/// InterfacesAdded, InterfacesRemoved and PropertiesChanged.
struct BlueZObjects: Sendable {
    /// Properties by object path, then by interface.
    private(set) var objects: [String: [String: [String: DBusValue]]] = [:]

    init() {}

    /// Reads a `GetManagedObjects` reply (`a{oa{sa{sv}}}`).
    init(managedObjects reply: [DBusValue]) {
        guard let tree = reply.first?.dictionaryValue else { return }
        for (path, interfaces) in tree {
            objects[path] = Self.interfaces(interfaces)
        }
    }

    /// Applies an ObjectManager or Properties signal.
    mutating func apply(_ signal: DBusSignal) {
        switch (signal.interface, signal.member) {
        case (BlueZ.objectManager, "InterfacesAdded"):
            guard signal.arguments.count == 2, let path = signal.arguments[0].stringValue else { return }
            objects[path, default: [:]].merge(Self.interfaces(signal.arguments[1])) { $1 }
        case (BlueZ.objectManager, "InterfacesRemoved"):
            guard signal.arguments.count == 2, let path = signal.arguments[0].stringValue,
                let removed = signal.arguments[1].stringArray
            else { return }
            for interface in removed { objects[path]?.removeValue(forKey: interface) }
            if objects[path]?.isEmpty == true { objects.removeValue(forKey: path) }
        case (BlueZ.properties, "PropertiesChanged"):
            guard signal.arguments.count >= 2, let interface = signal.arguments[0].stringValue,
                let changed = signal.arguments[1].dictionaryValue, objects[signal.path] != nil
            else { return }
            objects[signal.path, default: [:]][interface, default: [:]].merge(changed.mapValues(\.unwrapped)) { $1 }
            let invalidated = signal.arguments.count > 2 ? signal.arguments[2].stringArray ?? [] : []
            for name in invalidated { objects[signal.path]?[interface]?.removeValue(forKey: name) }
        default:
            break
        }
    }

    /// One interface's properties of one object.
    subscript(path: String, interface: String) -> [String: DBusValue]? {
        objects[path]?[interface]
    }

    /// The paths carrying an interface, sorted.
    func paths(with interface: String) -> [String] {
        objects.filter { $0.value[interface] != nil }.keys.sorted()
    }

    private static func interfaces(_ value: DBusValue) -> [String: [String: DBusValue]] {
        (value.dictionaryValue ?? [:]).mapValues { ($0.dictionaryValue ?? [:]).mapValues(\.unwrapped) }
    }
}
