#if canImport(Glibc)
import Glibc
#endif
import DescriptorIO
import SMP
import Synchronization

/// Why a characteristic's notifications or its write socket ended: the reason, for the error
/// the protocol on top reports (`the Bluetooth link was lost (reason)`).
public struct BLELinkEnded: Error, Sendable, Hashable {
    /// `bluetoothd closed the notification socket`, `the device disconnected`, …
    public var reason: String

    /// Creates the end with its reason.
    public init(_ reason: String) {
        self.reason = reason
    }
}

/// The notifications (or indications) of one characteristic, each value as it arrived, from
/// ``BLECharacteristic/subscribe()``. ``values`` finishes with ``BLELinkEnded`` when the socket
/// or the bus connection ends, and without an error after ``stop()``.
public final class BLENotifications: Sendable {
    /// The values, in order.
    public let values: AsyncThrowingStream<[UInt8], any Error>
    /// How they arrive.
    public let path: BLENotifyPath
    /// The ATT MTU bluetoothd reported with the `AcquireNotify` socket; nil with `StartNotify`.
    public let mtu: Int?
    private let channel: DescriptorChannel?
    private let characteristic: BLECharacteristic?
    private let reader: Mutex<Task<Void, Never>?> = Mutex(nil)
    private let continuation: AsyncThrowingStream<[UInt8], any Error>.Continuation

    /// Notifications from an `AcquireNotify` socket: one per datagram.
    init(channel: DescriptorChannel, mtu: Int) {
        (values, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
        self.channel = channel
        self.characteristic = nil
        self.mtu = mtu
        path = .acquired
        let continuation = continuation
        reader.withLock {
            $0 = Task {
                do {
                    for try await chunk in channel.reads { continuation.yield(chunk.bytes) }
                    continuation.finish(throwing: BLELinkEnded("bluetoothd closed the notification socket"))
                } catch let end as DescriptorChannel.End {
                    continuation.finish(throwing: BLELinkEnded(BLESocketChannel.reason(end)))
                } catch {
                    continuation.finish(throwing: BLELinkEnded("\(error)"))
                }
            }
        }
    }

    /// Notifications as PropertiesChanged(Value) signals after `StartNotify`.
    init(signals: AsyncStream<DBusSignal>, characteristic: BLECharacteristic) {
        (values, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
        self.channel = nil
        self.characteristic = characteristic
        self.mtu = nil
        path = .propertiesChanged
        let continuation = continuation
        reader.withLock {
            $0 = Task {
                for await signal in signals {
                    guard signal.arguments.first?.stringValue == BlueZ.gattCharacteristic,
                        let value = signal.arguments.dropFirst().first?.dictionaryValue?["Value"]?.bytesValue
                    else { continue }
                    continuation.yield(value)
                }
                continuation.finish(throwing: BLELinkEnded("lost the connection to bluetoothd"))
            }
        }
    }

    /// Stops the notifications: closes the socket, or calls `StopNotify`.
    public func stop() async {
        continuation.finish()
        reader.withLock { $0 }?.cancel()
        if let channel {
            channel.close()
            await channel.closed()
        }
        if let characteristic {
            _ = try? await characteristic.session.call(
                characteristic.path, BlueZ.gattCharacteristic, "StopNotify", action: "disabling notifications")
        }
    }
}

/// A socket from ``BLECharacteristic/acquireWrite()``: each datagram is one write command.
public final class BLEWriteSocket: Sendable {
    /// The ATT MTU bluetoothd reported with the socket.
    public let mtu: Int
    private let channel: DescriptorChannel

    init(channel: DescriptorChannel, mtu: Int) {
        self.channel = channel
        self.mtu = mtu
    }

    /// Writes each datagram as one write command, back to back, waiting while the socket's
    /// buffer is full.
    ///
    /// - Throws: ``BLELinkEnded`` when bluetoothd closed the socket or the write failed.
    public func write(_ datagrams: [[UInt8]]) async throws(BLELinkEnded) {
        do {
            try await channel.write(datagrams)
        } catch {
            throw BLELinkEnded(BLESocketChannel.reason(error))
        }
    }

    /// Closes the socket.
    public func close() async {
        channel.close()
        await channel.closed()
    }
}

/// Closes a descriptor bluetoothd handed over that is not used.
func closeDescriptor(_ descriptor: Int32) {
    Glibc.close(descriptor)
}
