import SMP

/// The bonds an adapter holds: pairing a device (and trusting it), listing the paired devices,
/// removing a bond.
public enum BLEBonds {
    /// Finds the device (scanning until it advertises, within the options' timeout), pairs it
    /// through this process's agent unless it is paired already, and marks it trusted. A device
    /// that was not connected before is disconnected again.
    ///
    /// - Returns: the device as BlueZ sees it afterwards, and whether this call paired it (false:
    ///   the existing bond was kept).
    public static func pair(
        _ selector: BLEDeviceFilter.Selector, options: BLEConnectOptions
    ) async throws(SMPTransportError) -> (device: BLEDevice, newlyPaired: Bool) {
        try await withSession(adapter: options.adapter, busAddress: options.busAddress, endpoint: selector.endpoint) { session throws(SMPTransportError) in
            try await pair(selector, options: options, in: session)
        }
    }

    private static func pair(
        _ selector: BLEDeviceFilter.Selector, options: BLEConnectOptions, in session: BlueZSession
    ) async throws(SMPTransportError) -> (device: BLEDevice, newlyPaired: Bool) {
        let connector = BLEConnector(session: session, selector: selector, options: options, deadline: .now + options.timeout)
        let device = try await connector.findDevice()
        let newlyPaired = !device.isPaired
        try await BLEPairing.pair(device, in: session, options: options, until: connector.deadline)
        if !device.isTrusted {
            try await session.call(
                device.path, BlueZ.properties, "Set", [.string(BlueZ.device), .string("Trusted"), .variant(.bool(true))], action: "trusting the device")
        }
        let path = device.path
        try await connector.waitFor("the device to be paired and trusted") { objects in
            objects[path, BlueZ.device]?["Paired"]?.boolValue == true && objects[path, BlueZ.device]?["Trusted"]?.boolValue == true
        }
        if !device.isConnected, newlyPaired {
            _ = try? await session.call(path, BlueZ.device, "Disconnect", action: "disconnecting")
        }
        let after = await session.objects[path, BlueZ.device].flatMap { BLEDevice(path: path, properties: $0) } ?? device
        return (after, newlyPaired)
    }

    /// The devices the adapter (`hci1`; nil: the first) has paired or bonded, by address.
    public static func list(adapter: String? = nil, busAddress: String = DBusClient.systemBusAddress) async throws(SMPTransportError) -> [BLEDevice] {
        try await withSession(adapter: adapter, busAddress: busAddress, endpoint: "ble") { session in
            await session.devices(matching: BLEDeviceFilter()).filter { $0.isPaired || $0.isBonded }.sorted { $0.address < $1.address }
        }
    }

    /// Removes the device `address` from the adapter (`Adapter1.RemoveDevice`): its bond and
    /// everything BlueZ knows of it.
    ///
    /// - Returns: the device as it was before.
    /// - Throws: `notFound` when the adapter knows no such device.
    public static func remove(
        address: String, adapter: String? = nil, busAddress: String = DBusClient.systemBusAddress
    ) async throws(SMPTransportError) -> BLEDevice {
        let endpoint = BLEDeviceFilter.Selector.address(address).endpoint
        return try await withSession(adapter: adapter, busAddress: busAddress, endpoint: endpoint) { session throws(SMPTransportError) in
            guard let device = await session.devices(matching: BLEDeviceFilter(.address(address))).first else {
                let name = session.adapterPath.split(separator: "/").last.map(String.init) ?? session.adapterPath
                throw SMPTransportError(.notFound, "\(endpoint): the adapter \(name) knows no such device, so holds no bond with it")
            }
            try await session.call(session.adapterPath, BlueZ.adapter, "RemoveDevice", [.objectPath(device.path)], action: "removing the device")
            return device
        }
    }

    /// Runs `body` on a new session and closes it afterwards.
    private static func withSession<T: Sendable>(
        adapter: String?, busAddress: String, endpoint: String, _ body: (BlueZSession) async throws(SMPTransportError) -> T
    ) async throws(SMPTransportError) -> T {
        let session = try await BlueZSession.open(adapter: adapter, busAddress: busAddress, endpoint: endpoint)
        do throws(SMPTransportError) {
            let result = try await body(session)
            await session.close()
            return result
        } catch {
            await session.close()
            throw error
        }
    }
}
