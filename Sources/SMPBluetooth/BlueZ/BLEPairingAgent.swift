import SMP

/// Pairs a device with a NoInputNoOutput agent ("Just Works"): the agent accepts every
/// confirmation and authorization bluetoothd asks for while `Device1.Pair()` runs.
enum BLEPairingAgent {
    static let path = "/org/smpctl/agent"

    /// Pairs `device` unless it is paired already.
    static func pair(_ device: BLEDevice, in session: BlueZSession, until deadline: ContinuousClock.Instant) async throws(SMPTransportError) {
        guard !device.isPaired else { return }
        let client = session.client
        do {
            try client.export(path: path, handler: answer)
        } catch {
            throw SMPTransportError(.io, "\(session.endpoint): cannot offer a pairing agent: \(error)")
        }
        defer { client.unexport(path: path) }
        do {
            _ = try await client.call(
                destination: BlueZ.service, path: BlueZ.agentManagerPath, interface: BlueZ.agentManager, member: "RegisterAgent",
                arguments: [.objectPath(path), .string("NoInputNoOutput")])
        } catch where error.shortName == "AlreadyExists" {
            // Registered by an earlier attempt on this connection.
        } catch {
            throw BlueZError.transportError(error, endpoint: session.endpoint, action: "registering the pairing agent")
        }
        do {
            _ = try await client.call(
                destination: BlueZ.service, path: device.path, interface: BlueZ.device, member: "Pair", timeout: remaining(until: deadline))
        } catch where error.shortName == "AlreadyExists" {
            // Paired meanwhile.
        } catch {
            _ = try? await session.call(BlueZ.agentManagerPath, BlueZ.agentManager, "UnregisterAgent", [.objectPath(path)], action: "unregistering the agent")
            throw SMPTransportError(
                .permissionDenied, "\(session.endpoint): pairing failed: \(error)",
                hint: "if the device shows a passkey, pair it once with bluetoothctl (pair \(device.address)), then connect without ?pair=1")
        }
        _ = try? await session.call(BlueZ.agentManagerPath, BlueZ.agentManager, "UnregisterAgent", [.objectPath(path)], action: "unregistering the agent")
    }

    /// The agent's answers: accept what needs no input, refuse what would need a PIN or passkey.
    @Sendable static func answer(_ call: DBusMethodCall) -> Result<[DBusValue], DBusError> {
        switch call.member {
        case "Release", "RequestConfirmation", "RequestAuthorization", "AuthorizeService", "Cancel":
            return .success([])
        default:
            return .failure(DBusError(name: "org.bluez.Error.Rejected", message: "this agent has no input or display (NoInputNoOutput)"))
        }
    }
}
