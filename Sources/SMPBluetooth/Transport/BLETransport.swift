import SMP
import Synchronization

/// SMP over Bluetooth LE through BlueZ (docs/protocol/ble.md §15.4).
///
/// Requests are split into writes of at most MTU − 3 bytes, a message's writes back to back;
/// notifications are joined into messages by the SMP header's length. It uses the sockets of
/// `AcquireWrite`/`AcquireNotify` where bluetoothd offers them and falls back to `WriteValue`
/// and `StartNotify`. When the link drops, ``inbound`` finishes with an error at once.
public final class BLETransport: SMPTransport, SMPLinkDiagnosing {
    public let endpoint: String
    /// Large: the client sends what the device's `buf_size` allows (the device reassembles);
    /// ``defaultParameters`` keeps messages to one write when the device does not say.
    public let maximumMessageSize = 65_535 + SMPHeader.size
    public let inbound: AsyncThrowingStream<[UInt8], any Error>
    /// The ATT MTU in use.
    public let mtu: Int
    /// How requests are written.
    public let writePath: BLEWritePath
    /// How responses arrive.
    public let notifyPath: BLENotifyPath
    /// The peripheral.
    public let device: BLEDevice

    /// One write (MTU − 3) per message when the device reports no parameters: devices built
    /// without MCUMGR_TRANSPORT_BT_REASSEMBLY accept nothing larger. Zephyr keeps 4 buffers.
    public var defaultParameters: MCUmgrParameters {
        MCUmgrParameters(bufferSize: BLEFragmentation.payloadSize(mtu: mtu), bufferCount: 4)
    }

    private struct State {
        var closed = false
        var shutDown = false
        var reassembler = SMPReassembler()
    }

    private struct Outgoing: Sendable {
        var message: [UInt8]
        var done: CheckedContinuation<Void, any Error>
    }

    private let peripheral: BLEPeripheral
    private let characteristic: BLECharacteristic
    private let notifications: BLENotifications
    /// The `AcquireWrite` socket, when requests go that way.
    private let writeSocket: BLEWriteSocket?
    private let state = Mutex(State())
    private let continuation: AsyncThrowingStream<[UInt8], any Error>.Continuation
    private let outbox: AsyncStream<Outgoing>.Continuation
    private let tasks = Mutex<[Task<Void, Never>]>([])
    private let writer: Mutex<Task<Void, Never>?> = Mutex(nil)

    /// Finds the device (scanning until it advertises, within the options' timeout), connects,
    /// and enables notifications on its SMP characteristic.
    public static func open(_ selector: BLEDeviceFilter.Selector, options: BLEConnectOptions = BLEConnectOptions()) async throws(SMPTransportError) -> BLETransport {
        let peripheral = try await BLEPeripheral.connect(selector, options: options)
        var notifications: BLENotifications?
        do throws(SMPTransportError) {
            guard let characteristic = await peripheral.characteristic(BlueZ.smpCharacteristicUUID, in: BlueZ.smpServiceUUID) else {
                throw SMPTransportError(
                    .notFound, "\(peripheral.endpoint): the device offers no SMP service (\(BlueZ.smpServiceUUID) with characteristic \(BlueZ.smpCharacteristicUUID))",
                    hint: "does its firmware enable CONFIG_MCUMGR_TRANSPORT_BT?")
            }
            let subscribed = try await characteristic.subscribe()
            notifications = subscribed
            let writeSocket = try await characteristic.acquireWrite()
            let negotiated = characteristic.mtu ?? writeSocket?.mtu ?? subscribed.mtu ?? 23
            let mtu = max(23, min(negotiated, options.mtu ?? negotiated))
            let transport = BLETransport(
                peripheral: peripheral, characteristic: characteristic, mtu: mtu, notifications: subscribed, writeSocket: writeSocket)
            transport.start()
            return transport
        } catch {
            await notifications?.stop()
            await peripheral.disconnect()
            throw error
        }
    }

    /// Why the device may not have answered: an unpaired link to a device that requires
    /// encryption, whose write commands it drops without a word; nil when the link is paired.
    public func diagnosis() async -> String? {
        guard await !peripheral.isPaired else { return nil }
        return BlueZError.unpairedSilence(endpoint)
    }

    private init(
        peripheral: BLEPeripheral, characteristic: BLECharacteristic, mtu: Int, notifications: BLENotifications, writeSocket: BLEWriteSocket?
    ) {
        self.endpoint = peripheral.endpoint
        self.device = peripheral.device
        self.peripheral = peripheral
        self.characteristic = characteristic
        self.mtu = mtu
        self.notifications = notifications
        self.writeSocket = writeSocket
        self.writePath = writeSocket == nil ? .writeValue : .acquired
        self.notifyPath = notifications.path
        (inbound, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
        let (outgoing, outbox) = AsyncStream<Outgoing>.makeStream()
        self.outbox = outbox
        writer.withLock { $0 = Task { [weak self] in await self?.drain(outgoing) } }
    }

    /// Starts receiving and watching the link.
    private func start() {
        let values = notifications.values
        track(Task { [weak self] in
            do {
                for try await value in values { self?.received(value) }
            } catch let end as BLELinkEnded {
                self?.linkLost(end.reason)
            } catch {
                self?.linkLost("\(error)")
            }
        })
        track(Task { [weak self, peripheral, characteristic] in
            let reason = await peripheral.disconnection(watching: characteristic)
            if !Task.isCancelled { self?.linkLost(reason) }
        })
    }

    private func track(_ task: Task<Void, Never>) {
        tasks.withLock { $0.append(task) }
    }

    public func send(_ message: [UInt8]) async throws {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            if state.withLock({ $0.closed }) {
                done.resume(throwing: closedError)
            } else if case .terminated = outbox.yield(Outgoing(message: message, done: done)) {
                done.resume(throwing: closedError)
            }
        }
    }

    /// Writes queued messages one at a time, each as consecutive fragments.
    private func drain(_ outgoing: AsyncStream<Outgoing>) async {
        for await item in outgoing {
            do {
                guard !state.withLock({ $0.closed }) else { throw closedError }
                try await write(BLEFragmentation.fragments(of: item.message, payloadSize: BLEFragmentation.payloadSize(mtu: mtu)))
                item.done.resume()
            } catch {
                item.done.resume(throwing: error)
            }
        }
    }

    /// Writes one message's fragments back to back: on the acquired socket one datagram each
    /// (waiting while its buffer is full), else one `WriteValue` each.
    private func write(_ fragments: [ArraySlice<UInt8>]) async throws(SMPTransportError) {
        if let writeSocket {
            do {
                try await writeSocket.write(fragments.map(Array.init))
            } catch {
                linkLost(error.reason)
                throw closedError
            }
            return
        }
        for fragment in fragments {
            try await characteristic.write(Array(fragment), withResponse: false, action: "writing a request")
        }
    }

    private func received(_ payload: [UInt8]) {
        let messages = state.withLock { $0.closed ? [] : $0.reassembler.append(payload) }
        for message in messages { continuation.yield(message) }
    }

    /// Ends the link after a failure: the stream finishes with an error, so every pending request fails at once.
    private func linkLost(_ reason: String) {
        guard state.withLock({ state in
            defer { state.closed = true }
            return !state.closed
        }) else { return }
        continuation.finish(throwing: SMPTransportError(
            .closed, "\(endpoint): the Bluetooth link was lost (\(reason))",
            hint: "the device may have reset or gone out of range; try again"))
        outbox.finish()
    }

    private var closedError: SMPTransportError {
        SMPTransportError(.closed, "\(endpoint): the Bluetooth link is closed")
    }

    public func close() async {
        let first = state.withLock { state in
            defer { state.closed = true; state.shutDown = true }
            return !state.shutDown
        }
        guard first else { return }
        continuation.finish()
        outbox.finish()
        await writer.withLock({ $0 })?.value
        for task in tasks.withLock({ $0 }) { task.cancel() }
        await notifications.stop()
        await writeSocket?.close()
        await peripheral.disconnect()
    }
}
