import SMP

/// A Bluetooth LE peripheral connected through BlueZ, its GATT services resolved: the way to
/// any of its characteristics, for SMP (``BLETransport``) and for other protocols (Nordic DFU).
///
/// ```swift
/// let peripheral = try await BLEPeripheral.connect(.address("C0:FF:EE:00:00:01"))
/// if let controlPoint = await peripheral.characteristic("8ec90001-f315-4f60-9fb8-838830daea50", in: "0000fe59-0000-1000-8000-00805f9b34fb") {
///     let notifications = try await controlPoint.subscribe()
///     try await controlPoint.write([0x06, 0x01], withResponse: true)
///     …
/// }
/// await peripheral.disconnect()
/// ```
public final class BLEPeripheral: Sendable {
    /// What messages name: `ble:AA:BB:…`, `ble:name=…`.
    public let endpoint: String
    /// The device, as it was when the connection was made.
    public let device: BLEDevice
    let session: BlueZSession

    private init(endpoint: String, device: BLEDevice, session: BlueZSession) {
        self.endpoint = endpoint
        self.device = device
        self.session = session
    }

    /// Finds the device (scanning until it advertises, within the options' timeout), pairs it if
    /// asked and not paired yet, connects and waits until its services are resolved.
    public static func connect(
        _ selector: BLEDeviceFilter.Selector, options: BLEConnectOptions = BLEConnectOptions()
    ) async throws(SMPTransportError) -> BLEPeripheral {
        let endpoint = selector.endpoint
        let session = try await BlueZSession.open(adapter: options.adapter, busAddress: options.busAddress, endpoint: endpoint)
        let connector = BLEConnector(session: session, selector: selector, options: options, deadline: .now + options.timeout)
        do throws(SMPTransportError) {
            var device = try await connector.findDevice()
            if options.pairs {
                try await BLEPairing.pair(device, in: session, options: options, until: connector.deadline)
                device.isPaired = true
            }
            device = try await connector.connect(device)
            return BLEPeripheral(endpoint: endpoint, device: device, session: session)
        } catch {
            await session.close()
            throw error
        }
    }

    /// The UUIDs (lower case) of the GATT services it offers.
    public func serviceUUIDs() async -> Set<String> {
        let objects = await session.objects
        return Set(serviceObjects(in: objects).values)
    }

    /// The characteristic `uuid` of the service `service` (UUIDs in any case); nil when the
    /// peripheral offers no such characteristic.
    public func characteristic(_ uuid: String, in service: String) async -> BLECharacteristic? {
        let objects = await session.objects
        let services = serviceObjects(in: objects).filter { $0.value == service.lowercased() }.keys
        let match = objects.paths(with: BlueZ.gattCharacteristic).first { path in
            let properties = objects[path, BlueZ.gattCharacteristic]
            return services.contains(properties?["Service"]?.stringValue ?? "")
                && properties?["UUID"]?.stringValue?.lowercased() == uuid.lowercased()
        }
        guard let match, let properties = objects[match, BlueZ.gattCharacteristic] else { return nil }
        return BLECharacteristic(uuid: uuid.lowercased(), path: match, properties: properties, session: session)
    }

    /// The peripheral's GATT services: UUID (lower case) by object path.
    private func serviceObjects(in objects: BlueZObjects) -> [String: String] {
        var services: [String: String] = [:]
        for path in objects.paths(with: BlueZ.gattService) {
            let service = objects[path, BlueZ.gattService]
            guard service?["Device"]?.stringValue == device.path, let uuid = service?["UUID"]?.stringValue else { continue }
            services[path] = uuid.lowercased()
        }
        return services
    }

    /// Waits until the link drops (the device disconnects, or `watched` disappears, as a
    /// characteristic does when the device's services change) or the connection to bluetoothd
    /// is lost; returns why.
    public func disconnection(watching watched: BLECharacteristic? = nil) async -> String {
        let devicePath = device.path
        let characteristicPath = watched?.path
        do {
            try await session.wait(until: nil, timeoutError: SMPTransportError(.closed, "")) { objects in
                objects[devicePath, BlueZ.device]?["Connected"]?.boolValue != true
                    || characteristicPath.map { objects[$0, BlueZ.gattCharacteristic] == nil } == true
            }
            return "the device disconnected"
        } catch is CancellationError {
            return "stopped watching"
        } catch {
            return "lost the connection to bluetoothd"
        }
    }

    /// Whether BlueZ holds a bond with it now (it may have been paired by someone else since
    /// the connection was made).
    public var isPaired: Bool {
        get async { await session.objects[device.path, BlueZ.device]?["Paired"]?.boolValue == true }
    }

    /// Disconnects the device and closes the connection to bluetoothd.
    public func disconnect() async {
        _ = try? await session.call(device.path, BlueZ.device, "Disconnect", action: "disconnecting")
        await session.close()
    }
}

/// One GATT characteristic of a ``BLEPeripheral``.
public final class BLECharacteristic: Sendable {
    /// Its UUID, lower case.
    public let uuid: String
    /// BlueZ's object path.
    public let path: String
    /// What it allows (`read`, `write`, `write-without-response`, `notify`, `indicate`, …).
    public let flags: [String]
    /// The ATT MTU bluetoothd reports for its link (BlueZ ≥ 5.62); nil when not reported.
    public let mtu: Int?
    let properties: [String: DBusValue]
    let session: BlueZSession

    init(uuid: String, path: String, properties: [String: DBusValue], session: BlueZSession) {
        self.uuid = uuid
        self.path = path
        self.properties = properties
        self.session = session
        flags = properties["Flags"]?.stringArray ?? []
        mtu = properties["MTU"]?.integerValue.flatMap { $0 > 0 ? Int($0) : nil }
    }

    /// Reads its value.
    public func read() async throws(SMPTransportError) -> [UInt8] {
        let reply = try await session.call(path, BlueZ.gattCharacteristic, "ReadValue", [.properties([])], action: "reading \(uuid)")
        guard let value = reply.first?.bytesValue else {
            throw SMPTransportError(.io, "\(session.endpoint): bluetoothd answered ReadValue of \(uuid) without a value")
        }
        return value
    }

    /// Writes `bytes` with `WriteValue`: a write request (acknowledged by the device) or a write
    /// command (without response).
    public func write(_ bytes: [UInt8], withResponse: Bool) async throws(SMPTransportError) {
        try await write(bytes, withResponse: withResponse, action: "writing to \(uuid)")
    }

    /// Writes `bytes`; a failure names `action`.
    func write(_ bytes: [UInt8], withResponse: Bool, action: String) async throws(SMPTransportError) {
        try await session.call(
            path, BlueZ.gattCharacteristic, "WriteValue",
            [.bytes(bytes), .properties([("type", .string(withResponse ? "request" : "command"))])], action: action)
    }

    /// Enables notifications (or indications): through a socket from `AcquireNotify` where
    /// bluetoothd offers one, else `StartNotify` and its PropertiesChanged signals.
    public func subscribe() async throws(SMPTransportError) -> BLENotifications {
        if let acquired = try await acquire("AcquireNotify") {
            let channel = try BLESocketChannel.open(acquired.fd, reading: true, endpoint: session.endpoint)
            return BLENotifications(channel: channel, mtu: acquired.mtu)
        }
        let signals: AsyncStream<DBusSignal>
        do {
            signals = try await session.client.signals(
                DBusMatchRule(sender: BlueZ.service, interface: BlueZ.properties, member: "PropertiesChanged", path: path))
        } catch {
            throw BlueZError.transportError(error, endpoint: session.endpoint, action: "subscribing to notifications of \(uuid)")
        }
        try await session.call(path, BlueZ.gattCharacteristic, "StartNotify", action: "enabling notifications")
        return BLENotifications(signals: signals, characteristic: self)
    }

    /// A socket from `AcquireWrite` for write commands, one per datagram; nil when bluetoothd
    /// offers none (write with ``write(_:withResponse:)`` then).
    public func acquireWrite() async throws(SMPTransportError) -> BLEWriteSocket? {
        guard let acquired = try await acquire("AcquireWrite") else { return nil }
        let channel = try BLESocketChannel.open(acquired.fd, reading: false, endpoint: session.endpoint)
        return BLEWriteSocket(channel: channel, mtu: acquired.mtu)
    }

    /// Acquires a socket when the characteristic offers it; nil to fall back to the D-Bus method.
    private func acquire(_ method: String) async throws(SMPTransportError) -> (fd: Int32, mtu: Int)? {
        let flag = method == "AcquireWrite" ? "WriteAcquired" : "NotifyAcquired"
        guard properties[flag] != nil else { return nil }
        let reply: [DBusValue]
        do {
            reply = try await session.client.call(
                destination: BlueZ.service, path: path, interface: BlueZ.gattCharacteristic, member: method, arguments: [.properties([])])
        } catch where ["NotSupported", "UnknownMethod", "InProgress"].contains(error.shortName)
            || (error.shortName == "NotPermitted" && error.message.contains("acquired")) {
            return nil
        } catch {
            throw BlueZError.transportError(error, endpoint: session.endpoint, action: method)
        }
        guard reply.count == 2, case .fd(let descriptor) = reply[0], let mtu = reply[1].integerValue else {
            for case .fd(let descriptor) in reply { closeDescriptor(descriptor) }
            throw SMPTransportError(.io, "\(session.endpoint): bluetoothd answered \(method) with \(reply.map(\.signature).joined()), not (hq)")
        }
        return (descriptor, Int(mtu))
    }
}
