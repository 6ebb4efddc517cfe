#if canImport(Glibc)
import Glibc
#endif
import DescriptorIO
import SMP
import Synchronization

/// SMP over Bluetooth LE through BlueZ (docs/protocol/ble.md §15.4).
///
/// Requests are split into writes of at most MTU − 3 bytes, a message's writes back to back;
/// notifications are joined into messages by the SMP header's length. It uses the sockets of
/// `AcquireWrite`/`AcquireNotify` where bluetoothd offers them and falls back to `WriteValue`
/// and `StartNotify`. When the link drops, ``inbound`` finishes with an error at once.
public final class BLETransport: SMPTransport {
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

    private let session: BlueZSession
    private let characteristicPath: String
    private let state = Mutex(State())
    private let continuation: AsyncThrowingStream<[UInt8], any Error>.Continuation
    private let outbox: AsyncStream<Outgoing>.Continuation
    private let tasks = Mutex<[Task<Void, Never>]>([])
    private let writer: Mutex<Task<Void, Never>?> = Mutex(nil)
    /// The `AcquireNotify` socket's channel, when notifications come that way.
    private let notifyChannel: DescriptorChannel?
    /// The `AcquireWrite` socket's channel, when requests go that way.
    private let writeChannel: DescriptorChannel?

    /// Finds the device (scanning until it advertises, within the options' timeout), connects,
    /// and enables notifications on its SMP characteristic.
    public static func open(_ selector: BLEDeviceFilter.Selector, options: BLEConnectOptions = BLEConnectOptions()) async throws(SMPTransportError) -> BLETransport {
        let endpoint = switch selector {
        case .address(let address): "ble:\(address.uppercased())"
        case .name(let name): "ble:name=\(name)"
        case .any: "ble"
        }
        let session = try await BlueZSession.open(adapter: options.adapter, busAddress: options.busAddress, endpoint: endpoint)
        let connector = BLEConnector(session: session, selector: selector, options: options, deadline: .now + options.timeout)
        var acquired: [Int32] = []
        do throws(SMPTransportError) {
            var device = try await connector.findDevice()
            if options.pair {
                try await BLEPairingAgent.pair(device, in: session, until: connector.deadline)
                device.isPaired = true
            }
            device = try await connector.connect(device)
            let (path, properties) = try await connector.smpCharacteristic(of: device)
            let notify = try await acquire("AcquireNotify", properties: properties, path: path, session: session)
            if let notify { acquired.append(notify.fd) }
            let write = try await acquire("AcquireWrite", properties: properties, path: path, session: session)
            if let write { acquired.append(write.fd) }
            if notify == nil {
                try await session.call(path, BlueZ.gattCharacteristic, "StartNotify", action: "enabling notifications")
            }
            let negotiated = properties["MTU"]?.integerValue.flatMap { $0 > 0 ? Int($0) : nil } ?? write?.mtu ?? notify?.mtu ?? 23
            let mtu = max(23, min(negotiated, options.mtu ?? negotiated))
            // Each channel owns its socket from here on (and closes it if it cannot start).
            var notifyChannel: DescriptorChannel?
            if let notify {
                acquired.removeAll { $0 == notify.fd }
                notifyChannel = try BLESocketChannel.open(notify.fd, reading: true, endpoint: endpoint)
            }
            var writeChannel: DescriptorChannel?
            if let write {
                acquired.removeAll { $0 == write.fd }
                do throws(SMPTransportError) {
                    writeChannel = try BLESocketChannel.open(write.fd, reading: false, endpoint: endpoint)
                } catch {
                    notifyChannel?.close()
                    throw error
                }
            }
            let transport = BLETransport(
                endpoint: endpoint, device: device, session: session, characteristicPath: path, mtu: mtu,
                writeChannel: writeChannel, notifyChannel: notifyChannel)
            await transport.start()
            return transport
        } catch {
            for descriptor in acquired { Glibc.close(descriptor) }
            await session.close()
            throw error
        }
    }

    /// Acquires a socket when the characteristic offers it; nil to fall back to the D-Bus method.
    private static func acquire(
        _ method: String, properties: [String: DBusValue], path: String, session: BlueZSession
    ) async throws(SMPTransportError) -> (fd: Int32, mtu: Int)? {
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
            for case .fd(let descriptor) in reply { Glibc.close(descriptor) }
            throw SMPTransportError(.io, "\(session.endpoint): bluetoothd answered \(method) with \(reply.map(\.signature).joined()), not (hq)")
        }
        return (descriptor, Int(mtu))
    }

    private init(
        endpoint: String, device: BLEDevice, session: BlueZSession, characteristicPath: String, mtu: Int,
        writeChannel: DescriptorChannel?, notifyChannel: DescriptorChannel?
    ) {
        self.endpoint = endpoint
        self.device = device
        self.session = session
        self.characteristicPath = characteristicPath
        self.mtu = mtu
        self.writeChannel = writeChannel
        self.notifyChannel = notifyChannel
        self.writePath = writeChannel == nil ? .writeValue : .acquired
        self.notifyPath = notifyChannel == nil ? .propertiesChanged : .acquired
        (inbound, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
        let (outgoing, outbox) = AsyncStream<Outgoing>.makeStream()
        self.outbox = outbox
        writer.withLock { $0 = Task { [weak self] in await self?.drain(outgoing) } }
    }

    /// Starts receiving and watching the link.
    private func start() async {
        if let notifyChannel {
            track(Task { [weak self] in
                do {
                    for try await chunk in notifyChannel.reads { self?.received(chunk.bytes) }
                } catch let end as DescriptorChannel.End {
                    self?.linkLost(BLESocketChannel.reason(end))
                } catch {
                    self?.linkLost("\(error)")
                }
            })
        } else if let signals = try? await session.client.signals(
            DBusMatchRule(sender: BlueZ.service, interface: BlueZ.properties, member: "PropertiesChanged", path: characteristicPath)) {
            track(Task { [weak self] in
                for await signal in signals {
                    guard signal.arguments.first?.stringValue == BlueZ.gattCharacteristic,
                        let value = signal.arguments.dropFirst().first?.dictionaryValue?["Value"]?.bytesValue
                    else { continue }
                    self?.received(value)
                }
            })
        } else {
            linkLost("cannot subscribe to notifications")
        }
        let devicePath = device.path
        let characteristicPath = characteristicPath
        track(Task { [weak self, session] in
            do {
                try await session.wait(until: nil, timeoutError: SMPTransportError(.closed, "")) { objects in
                    objects[devicePath, BlueZ.device]?["Connected"]?.boolValue != true || objects[characteristicPath, BlueZ.gattCharacteristic] == nil
                }
                self?.linkLost("the device disconnected")
            } catch {
                self?.linkLost("lost the connection to bluetoothd")
            }
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
        if let writeChannel {
            do {
                try await writeChannel.write(fragments.map(Array.init))
            } catch {
                linkLost(BLESocketChannel.reason(error))
                throw closedError
            }
            return
        }
        for fragment in fragments {
            try await session.call(
                characteristicPath, BlueZ.gattCharacteristic, "WriteValue",
                [.bytes(Array(fragment)), .properties([("type", .string("command"))])], action: "writing a request")
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
        notifyChannel?.close()
        writeChannel?.close()
        await notifyChannel?.closed()
        await writeChannel?.closed()
        for task in tasks.withLock({ $0 }) { task.cancel() }
        if notifyPath == .propertiesChanged {
            _ = try? await session.call(characteristicPath, BlueZ.gattCharacteristic, "StopNotify", action: "disabling notifications")
        }
        _ = try? await session.call(device.path, BlueZ.device, "Disconnect", action: "disconnecting")
        await session.close()
    }
}
