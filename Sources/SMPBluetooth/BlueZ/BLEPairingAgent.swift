import SMP

/// The `org.bluez.Agent1` (capability KeyboardDisplay) that answers bluetoothd while
/// `Device1.Pair()` runs. bluetoothd asks the agent registered by the connection that called
/// `Pair()` (doc/org.bluez.AgentManager.rst), so the agent is registered on the session's own
/// connection for the time of one pairing.
///
/// It answers from the options first (a passkey given, numbers accepted unseen), else asks the
/// ``BLEPairingInteraction``; with neither it refuses at once, saying how to give the answer.
/// Just Works needs no answer (an authorization request is accepted: this side asked to pair).
actor BLEPairingAgent {
    static let path = "/org/smpctl/agent"

    /// What bluetoothd asked for, which says what a failed pairing means.
    enum Request: Sendable {
        case passkey, display, confirmation
    }

    private let device: BLEDevice
    private let options: BLEConnectOptions
    private(set) var request: Request?
    private(set) var refusal: BLEPairingRefusal?
    private var shown: UInt32?
    private var waiting: [Int: (answer: CheckedContinuation<Result<[DBusValue], DBusError>, Never>, task: Task<Void, Never>)] = [:]
    private var nextWaiting = 0
    /// bluetoothd cancelled a request: what the interaction says after that is moot.
    private var cancelled = false

    init(device: BLEDevice, options: BLEConnectOptions) {
        self.device = device
        self.options = options
    }

    /// Answers one method call of `org.bluez.Agent1` (doc/org.bluez.Agent.rst).
    func answer(_ call: DBusMethodCall) async -> Result<[DBusValue], DBusError> {
        switch call.member {
        case "Release", "RequestAuthorization", "AuthorizeService":
            return .success([])
        case "Cancel":
            cancelWaiting()
            return .success([])
        case "RequestPasskey":
            request = .passkey
            return await enterPasskey()
        case "DisplayPasskey":
            request = .display
            guard let passkey = Self.passkey(in: call) else {
                return .failure(DBusError(name: DBusError.invalidArgs, message: "DisplayPasskey takes (o device, u passkey, q entered)"))
            }
            // Called again for each key typed on the device: show the passkey once.
            if shown != passkey {
                shown = passkey
                await options.interaction?.display(passkey: passkey, for: device)
            }
            return .success([])
        case "RequestConfirmation":
            request = .confirmation
            guard let passkey = Self.passkey(in: call) else {
                return .failure(DBusError(name: DBusError.invalidArgs, message: "RequestConfirmation takes (o device, u passkey)"))
            }
            return await confirm(passkey)
        default:
            // RequestPinCode, DisplayPinCode: Bluetooth Classic's PIN codes, not LE's.
            return .failure(Self.rejected("this agent pairs Bluetooth LE devices and has no PIN code"))
        }
    }

    private func enterPasskey() async -> Result<[DBusValue], DBusError> {
        if let passkey = options.passkey { return .success([.uint32(passkey)]) }
        guard let interaction = options.interaction else {
            return refuse(BLEPairingRefusal(
                "the device asks for the passkey it displays, and none was given",
                hint: "add passkey=NNNNNN (the six digits the device shows) to the connection"))
        }
        let device = device
        return await waitForAnswer {
            do throws(BLEPairingRefusal) {
                return .success([.uint32(try await interaction.passkey(for: device))])
            } catch {
                return await self.refuse(error)
            }
        }
    }

    private func confirm(_ passkey: UInt32) async -> Result<[DBusValue], DBusError> {
        if options.acceptsAnyNumber { return .success([]) }
        let number = BLEPasskey.sixDigits(passkey)
        guard let interaction = options.interaction else {
            return refuse(BLEPairingRefusal(
                "the device asks to confirm that it displays \(number), and no one can be asked",
                hint: "add confirm=1 to the connection to accept the number unseen (this gives up the protection against a man in the middle)"))
        }
        let device = device
        return await waitForAnswer {
            do throws(BLEPairingRefusal) {
                if try await interaction.confirm(passkey: passkey, for: device) { return .success([]) }
                return await self.refuse(BLEPairingRefusal("\(number) was not confirmed"))
            } catch {
                return await self.refuse(error)
            }
        }
    }

    /// Records why this side refused; the pairing's error then says it.
    private func refuse(_ refusal: BLEPairingRefusal) -> Result<[DBusValue], DBusError> {
        if !cancelled { self.refusal = refusal }
        return .failure(Self.rejected(refusal.reason))
    }

    /// Runs `work` (which may wait for a person) until it answers or bluetoothd cancels the request.
    private func waitForAnswer(_ work: @escaping @Sendable () async -> Result<[DBusValue], DBusError>) async -> Result<[DBusValue], DBusError> {
        nextWaiting += 1
        let id = nextWaiting
        return await withCheckedContinuation { continuation in
            waiting[id] = (continuation, Task {
                let result = await work()
                self.finish(id, result)
            })
        }
    }

    private func finish(_ id: Int, _ result: Result<[DBusValue], DBusError>) {
        waiting.removeValue(forKey: id)?.answer.resume(returning: result)
    }

    /// bluetoothd gave up on the request (timed out, or the device cancelled): answer it at once
    /// and stop asking.
    private func cancelWaiting() {
        cancelled = true
        let all = waiting.values
        waiting = [:]
        for entry in all {
            entry.task.cancel()
            entry.answer.resume(returning: .failure(DBusError(name: "org.bluez.Error.Canceled", message: "cancelled by bluetoothd")))
        }
    }

    /// The passkey argument (the second) of DisplayPasskey and RequestConfirmation.
    private static func passkey(in call: DBusMethodCall) -> UInt32? {
        guard call.arguments.count >= 2, let value = call.arguments[1].integerValue else { return nil }
        return UInt32(exactly: value)
    }

    private static func rejected(_ why: String) -> DBusError {
        DBusError(name: "org.bluez.Error.Rejected", message: why)
    }
}
