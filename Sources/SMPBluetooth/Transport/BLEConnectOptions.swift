/// How ``BLETransport/open(_:options:)`` reaches a device.
public struct BLEConnectOptions: Sendable, Hashable {
    /// The adapter (`hci1`); nil takes the first.
    public var adapter: String?
    /// Caps the ATT MTU (23–65535); nil uses what the link negotiated.
    public var mtu: Int?
    /// Pair ("Just Works") before use.
    public var pair: Bool
    /// The time for the whole connection: finding the device (scanning while it does not
    /// advertise yet), pairing, connecting, resolving services and enabling notifications.
    public var timeout: Duration
    /// The bus bluetoothd is on.
    public var busAddress: String

    /// Creates options; the timeout defaults to 30 s.
    public init(
        adapter: String? = nil, mtu: Int? = nil, pair: Bool = false, timeout: Duration = .seconds(30),
        busAddress: String = DBusClient.systemBusAddress
    ) {
        self.adapter = adapter
        self.mtu = mtu
        self.pair = pair
        self.timeout = timeout
        self.busAddress = busAddress
    }
}
