import SMP

/// Pairing a device through the session's own agent (``BLEPairingAgent``), and what a failed
/// `Device1.Pair()` means (src/device.c, new_authentication_return).
enum BLEPairing {
    /// Pairs `device` unless it is paired already (an existing bond is used as it is).
    static func pair(
        _ device: BLEDevice, in session: BlueZSession, options: BLEConnectOptions, until deadline: ContinuousClock.Instant
    ) async throws(SMPTransportError) {
        guard !device.isPaired else { return }
        let agent = BLEPairingAgent(device: device, options: options)
        let client = session.client
        do {
            try client.export(path: BLEPairingAgent.path) { call in await agent.answer(call) }
        } catch {
            throw SMPTransportError(.io, "\(session.endpoint): cannot offer a pairing agent: \(error)")
        }
        defer { client.unexport(path: BLEPairingAgent.path) }
        do {
            _ = try await client.call(
                destination: BlueZ.service, path: BlueZ.agentManagerPath, interface: BlueZ.agentManager, member: "RegisterAgent",
                arguments: [.objectPath(BLEPairingAgent.path), .string("KeyboardDisplay")])
        } catch where error.shortName == "AlreadyExists" {
            // Registered by an earlier attempt on this connection.
        } catch {
            throw BlueZError.transportError(error, endpoint: session.endpoint, action: "registering the pairing agent")
        }
        var failure: DBusError?
        do {
            _ = try await client.call(
                destination: BlueZ.service, path: device.path, interface: BlueZ.device, member: "Pair", timeout: remaining(until: deadline))
        } catch where error.shortName == "AlreadyExists" {
            // Paired meanwhile.
        } catch {
            failure = error
        }
        _ = try? await session.call(
            BlueZ.agentManagerPath, BlueZ.agentManager, "UnregisterAgent", [.objectPath(BLEPairingAgent.path)], action: "unregistering the agent")
        if let failure {
            throw await pairingError(failure, agent: agent, endpoint: session.endpoint, timeout: options.timeout)
        }
    }

    /// The error for a failed `Pair()`: this side's refusal when the agent refused, else what
    /// bluetoothd's error means given what the agent was asked.
    static func pairingError(_ failure: DBusError, agent: BLEPairingAgent, endpoint: String, timeout: Duration) async -> SMPTransportError {
        if let refusal = await agent.refusal {
            return SMPTransportError(.permissionDenied, "\(endpoint): pairing refused: \(refusal.reason)", hint: refusal.hint)
        }
        let request = await agent.request
        let failed = "\(endpoint): pairing failed"
        let said = failure.message.isEmpty ? "" : " (bluetoothd: \(failure.message))"
        switch failure.shortName {
        case "AuthenticationFailed":
            switch request {
            case .passkey:
                return SMPTransportError(
                    .permissionDenied, "\(failed): wrong passkey: the device did not accept the passkey entered\(said)",
                    hint: "enter the six digits the device displays during this pairing")
            case .display:
                return SMPTransportError(
                    .permissionDenied, "\(failed): the passkey typed on the device was wrong\(said)", hint: "type the passkey shown, then Enter if the device has one")
            case .confirmation:
                return SMPTransportError(.permissionDenied, "\(failed): the device did not confirm the number: declined on the device, or the numbers differ\(said)")
            case nil:
                return SMPTransportError(
                    .permissionDenied, "\(failed): the device refused Just Works pairing\(said)",
                    hint: "the device requires an authenticated link, which needs it to display a passkey or a number, or to take one typed on it")
            }
        case "AuthenticationRejected":
            return SMPTransportError(
                .permissionDenied, "\(failed): the device rejected pairing\(said)",
                hint: "is it accepting new bonds? It may hold as many as it can (CONFIG_BT_MAX_PAIRED), or an old bond of this adapter: remove that on the device")
        case "AuthenticationCanceled":
            return SMPTransportError(.permissionDenied, "\(failed): pairing was cancelled: the device disconnected, or bluetoothd stopped waiting for an answer\(said)")
        case "AuthenticationTimeout":
            return SMPTransportError(
                .permissionDenied, "\(failed): timed out\(said)",
                hint: request == .display ? "type the passkey on the device within 30 seconds" : "is the device still in range and waiting to pair?")
        case "ConnectionAttemptFailed":
            return SMPTransportError(.notFound, "\(failed): the device could not be reached\(said)", hint: "is it advertising and in range?")
        case "NoReply":
            return SMPTransportError(.io, "\(failed): it did not finish within \(timeout)", hint: "a longer timeout= gives more time to answer")
        default:
            return BlueZError.transportError(failure, endpoint: endpoint, action: "pairing")
        }
    }
}
