import SMP

/// The steps of opening a BLE link: find the device, connect, resolve services. Each step
/// shares the one deadline.
struct BLEConnector {
    let session: BlueZSession
    let selector: BLEDeviceFilter.Selector
    let options: BLEConnectOptions
    let deadline: ContinuousClock.Instant

    var endpoint: String { session.endpoint }

    /// Finds the device: known to BlueZ already, else by scanning until the deadline.
    func findDevice() async throws(SMPTransportError) -> BLEDevice {
        let filter = BLEDeviceFilter(selector)
        guard let device = try await BLEScanner.discover(filter, in: session, until: deadline, stopAtFirst: true).first else {
            let what = switch selector {
            case .address(let address): "no device with address \(address)"
            case .name(let name): "no device named \"\(name)\""
            case .any: "no device"
            }
            throw SMPTransportError(
                .notFound, "\(endpoint): \(what) was found within \(options.timeout)",
                hint: "check that it is advertising and in range", nextStep: .scanBluetooth)
        }
        return device
    }

    /// Connects (retrying while the device does not answer, or finding it again when BlueZ
    /// dropped its object, until the deadline), waits for its services to be resolved, and
    /// returns the device connected. A device chosen by name that
    /// does not answer may have come back under another address (new firmware, a random
    /// address): between attempts a short scan looks for another device of that name, and the
    /// next attempt goes to it.
    func connect(_ first: BLEDevice) async throws(SMPTransportError) -> BLEDevice {
        var device = first
        while true {
            do {
                _ = try await session.client.call(
                    destination: BlueZ.service, path: device.path, interface: BlueZ.device, member: "Connect",
                    timeout: remaining(until: deadline))
                break
            } catch where error.shortName == "AlreadyConnected" {
                break
            } catch where ["Failed", "NotAvailable", "InProgress", "NotReady"].contains(error.shortName) && ContinuousClock.now + .milliseconds(500) < deadline {
                if case .name = selector, let other = await anotherDevice(than: device) {
                    device = other
                } else {
                    try? await Task.sleep(for: .milliseconds(500))
                }
            } catch where [DBusError.unknownObject, "org.bluez.Error.DoesNotExist"].contains(error.name) && ContinuousClock.now + .milliseconds(500) < deadline {
                // BlueZ dropped the device's object (it reset, and its cached entry went): look for
                // it again, under its new object.
                try? await Task.sleep(for: .milliseconds(200))
                device = try await findDevice()
            } catch where error.name == DBusError.noReply {
                throw SMPTransportError(.notFound, "\(endpoint): the device did not accept a connection within \(options.timeout)",
                    hint: "is it advertising and in range?")
            } catch {
                throw BlueZError.transportError(error, endpoint: endpoint, action: "connecting")
            }
        }
        let path = device.path
        try await waitFor("the device's services to be resolved") { objects in
            objects[path, BlueZ.device]?["ServicesResolved"]?.boolValue == true
        }
        return device
    }

    /// Scans briefly for a device that passes the filter other than `device`, heard advertising
    /// if possible; nil when there is none.
    private func anotherDevice(than device: BLEDevice) async -> BLEDevice? {
        let until = min(deadline, .now + .seconds(1))
        let found = (try? await BLEScanner.discover(BLEDeviceFilter(selector), in: session, until: until, stopAtFirst: false)) ?? []
        let others = found.filter { $0.path != device.path }
        return others.first { $0.rssi != nil } ?? others.first
    }

    /// Waits for a condition over BlueZ's objects until the deadline.
    func waitFor(_ what: String, _ condition: @escaping @Sendable (BlueZObjects) -> Bool) async throws(SMPTransportError) {
        let timeout = SMPTransportError(.notFound, "\(endpoint): timed out after \(options.timeout) waiting for \(what)")
        do {
            try await session.wait(until: deadline, timeoutError: timeout, condition)
        } catch let error as SMPTransportError {
            throw error
        } catch {
            throw SMPTransportError(.io, "\(endpoint): interrupted while waiting for \(what)")
        }
    }
}

/// The time left until `deadline`, at least 1 ms (D-Bus timeouts must be positive).
func remaining(until deadline: ContinuousClock.Instant) -> Duration {
    max(.milliseconds(1), deadline - .now)
}
