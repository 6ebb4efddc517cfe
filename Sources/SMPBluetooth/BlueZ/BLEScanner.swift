import SMP

/// Discovery through BlueZ: devices BlueZ already knows plus those heard while scanning.
public enum BLEScanner {
    /// Scans for `duration` and returns the devices that pass `filter`, strongest first
    /// (devices only known from before, without an RSSI, last).
    public static func scan(
        filter: BLEDeviceFilter = BLEDeviceFilter(), duration: Duration, adapter: String? = nil,
        busAddress: String = DBusClient.systemBusAddress
    ) async throws(SMPTransportError) -> [BLEDevice] {
        let session = try await BlueZSession.open(adapter: adapter, busAddress: busAddress, endpoint: "ble")
        do {
            let devices = try await discover(filter, in: session, until: .now + duration, stopAtFirst: false)
            await session.close()
            return devices.sorted { ($0.rssi ?? Int.min, $1.address) > ($1.rssi ?? Int.min, $0.address) }
        } catch {
            await session.close()
            throw error
        }
    }

    /// Discovers until `deadline`, or until a device passes the filter with `stopAtFirst`.
    /// Discovery is stopped again before this returns (connecting while scanning is unreliable).
    static func discover(
        _ filter: BLEDeviceFilter, in session: BlueZSession, until deadline: ContinuousClock.Instant, stopAtFirst: Bool
    ) async throws(SMPTransportError) -> [BLEDevice] {
        if stopAtFirst, case let known = await session.devices(matching: filter), !known.isEmpty { return known }
        var options: [(String, DBusValue)] = [("Transport", .string("le"))]
        if filter.requireSMP { options.append(("UUIDs", .strings([BlueZ.smpServiceUUID]))) }
        if let rssi = filter.minimumRSSI { options.append(("RSSI", .int16(Int16(clamping: rssi)))) }
        let adapter = session.adapterPath
        try await session.call(adapter, BlueZ.adapter, "SetDiscoveryFilter", [.properties(options)], action: "setting the scan filter")
        do {
            _ = try await session.client.call(destination: BlueZ.service, path: adapter, interface: BlueZ.adapter, member: "StartDiscovery")
        } catch where error.shortName == "NotReady" {
            throw SMPTransportError(
                .unavailable, "\(session.endpoint): the Bluetooth adapter is not ready to scan (\(error))",
                hint: "is it powered on? try: bluetoothctl power on")
        } catch {
            throw BlueZError.transportError(error, endpoint: session.endpoint, action: "starting a scan")
        }
        do {
            if stopAtFirst {
                let found = SMPTransportError(.notFound, "scan ended")
                try await session.wait(until: deadline, timeoutError: found) { objects in
                    objects.paths(with: BlueZ.device).contains { path in
                        path.hasPrefix(adapter + "/") && objects[path, BlueZ.device].flatMap { BLEDevice(path: path, properties: $0) }.map(filter.matches) == true
                    }
                }
            } else {
                try await Task.sleep(until: deadline)
            }
        } catch is SMPTransportError {
            // The deadline passed: report what was found.
        } catch {
            _ = try? await session.call(adapter, BlueZ.adapter, "StopDiscovery", action: "stopping the scan")
            throw SMPTransportError(.io, "\(session.endpoint): the scan was interrupted: \(error)")
        }
        // Taken before stopping: bluetoothd drops the RSSI of devices when discovery stops.
        let found = await session.devices(matching: filter)
        _ = try? await session.call(adapter, BlueZ.adapter, "StopDiscovery", action: "stopping the scan")
        return found
    }
}
