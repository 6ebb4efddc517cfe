import SMP

/// A connection to bluetoothd with one adapter chosen and BlueZ's object tree kept current.
///
/// Everything that waits for BlueZ (a device to appear, services to resolve, a link to drop)
/// waits on a condition over the tree, re-checked after every signal.
actor BlueZSession {
    /// The D-Bus connection.
    let client: DBusClient
    /// The adapter's object path (`/org/bluez/hci0`).
    let adapterPath: String
    /// What messages name (`ble:AA:BB:…`).
    let endpoint: String
    private(set) var objects: BlueZObjects
    private var waiters: [Int: Waiter] = [:]
    private var nextWaiter = 0
    private var pump: Task<Void, Never>?
    private var ended: SMPTransportError?

    private struct Waiter {
        var check: @Sendable (BlueZObjects) -> Bool
        var continuation: CheckedContinuation<Void, any Error>
    }

    private init(client: DBusClient, adapterPath: String, endpoint: String, objects: BlueZObjects) {
        self.client = client
        self.adapterPath = adapterPath
        self.endpoint = endpoint
        self.objects = objects
    }

    /// Connects to the system bus, reads BlueZ's objects and picks the adapter (by name, e.g.
    /// `hci1`, else the first), which must be powered.
    static func open(adapter: String?, busAddress: String, endpoint: String) async throws(SMPTransportError) -> BlueZSession {
        let client: DBusClient
        do {
            client = try DBusClient(address: busAddress)
        } catch {
            throw SMPTransportError(
                .unavailable, "\(endpoint): the Bluetooth LE transport is not available: the system D-Bus is unreachable: \(error.message)",
                hint: "Bluetooth is reached through bluetoothd on the system D-Bus: is dbus running? Set DBUS_SYSTEM_BUS_ADDRESS if the bus is elsewhere")
        }
        do {
            let signals = try await client.signals(DBusMatchRule(sender: BlueZ.service))
            let reply = try await client.call(
                destination: BlueZ.service, path: BlueZ.root, interface: BlueZ.objectManager, member: "GetManagedObjects")
            let objects = BlueZObjects(managedObjects: reply)
            let adapterPath = try chooseAdapter(adapter, in: objects, endpoint: endpoint)
            let session = BlueZSession(client: client, adapterPath: adapterPath, endpoint: endpoint, objects: objects)
            await session.startPump(signals)
            return session
        } catch let error as SMPTransportError {
            await client.close()
            throw error
        } catch let error as DBusError {
            await client.close()
            throw BlueZError.transportError(error, endpoint: endpoint, action: "reading BlueZ's objects")
        } catch {
            await client.close()
            throw SMPTransportError(.io, "\(endpoint): \(error)")
        }
    }

    private static func chooseAdapter(_ name: String?, in objects: BlueZObjects, endpoint: String) throws(SMPTransportError) -> String {
        let adapters = objects.paths(with: BlueZ.adapter)
        let path: String
        if let name {
            guard let match = adapters.first(where: { $0.split(separator: "/").last.map(String.init) == name }) else {
                let known = adapters.compactMap { $0.split(separator: "/").last }.joined(separator: ", ")
                throw SMPTransportError(
                    .notFound, "\(endpoint): no Bluetooth adapter \(name)",
                    hint: known.isEmpty ? "no adapter at all: is there a controller?" : "adapters present: \(known)")
            }
            path = match
        } else {
            guard let first = adapters.first else {
                throw SMPTransportError(.notFound, "\(endpoint): no Bluetooth adapter: is bluetoothd running and is there a controller?")
            }
            path = first
        }
        guard objects[path, BlueZ.adapter]?["Powered"]?.boolValue == true else {
            let name = path.split(separator: "/").last.map(String.init) ?? path
            throw SMPTransportError(
                .unavailable, "\(endpoint): the Bluetooth adapter \(name) is powered off",
                hint: "power it on: bluetoothctl power on")
        }
        return path
    }

    private func startPump(_ signals: AsyncStream<DBusSignal>) {
        pump = Task { [weak self] in
            for await signal in signals {
                guard let self else { return }
                await self.apply(signal)
            }
            await self?.end(SMPTransportError(.io, "lost the connection to the system D-Bus"))
        }
    }

    private func apply(_ signal: DBusSignal) {
        objects.apply(signal)
        for (id, waiter) in waiters where waiter.check(objects) {
            waiters.removeValue(forKey: id)
            waiter.continuation.resume()
        }
    }

    private func end(_ error: SMPTransportError) {
        ended = error
        let all = waiters.values
        waiters = [:]
        for waiter in all { waiter.continuation.resume(throwing: error) }
    }

    /// Waits until `condition` holds over the tree, at most until `deadline` (nil: for ever).
    ///
    /// - Throws: `timeoutError` at the deadline; the bus error if the bus connection ends.
    func wait(
        until deadline: ContinuousClock.Instant?, timeoutError: SMPTransportError,
        _ condition: @escaping @Sendable (BlueZObjects) -> Bool
    ) async throws {
        if condition(objects) { return }
        if let ended { throw ended }
        nextWaiter += 1
        let id = nextWaiter
        let timer = deadline.map { deadline in
            Task { [weak self] in
                try? await Task.sleep(until: deadline)
                if !Task.isCancelled { await self?.fail(id, timeoutError) }
            }
        }
        defer { timer?.cancel() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiters[id] = Waiter(check: condition, continuation: continuation)
            }
        } onCancel: {
            Task { await self.fail(id, CancellationError()) }
        }
    }

    private func fail(_ id: Int, _ error: any Error) {
        waiters.removeValue(forKey: id)?.continuation.resume(throwing: error)
    }

    /// Calls a BlueZ method; failures become link errors naming `action`.
    @discardableResult
    func call(
        _ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue] = [],
        timeout: Duration = .seconds(25), action: String
    ) async throws(SMPTransportError) -> [DBusValue] {
        do {
            return try await client.call(
                destination: BlueZ.service, path: path, interface: interface, member: member, arguments: arguments, timeout: timeout)
        } catch {
            throw BlueZError.transportError(error, endpoint: endpoint, action: action)
        }
    }

    /// The devices under this adapter, known or newly found, that pass a filter.
    func devices(matching filter: BLEDeviceFilter) -> [BLEDevice] {
        objects.paths(with: BlueZ.device).filter { $0.hasPrefix(adapterPath + "/") }.compactMap { path in
            objects[path, BlueZ.device].flatMap { BLEDevice(path: path, properties: $0) }
        }.filter(filter.matches)
    }

    /// Closes the bus connection; waiters fail.
    func close() async {
        pump?.cancel()
        end(SMPTransportError(.closed, "\(endpoint): closed"))
        await client.close()
    }
}
