/// How ``BLETransport/open(_:options:)`` reaches a device.
public struct BLEConnectOptions: Sendable {
    /// The adapter (`hci1`); nil takes the first.
    public var adapter: String?
    /// Caps the ATT MTU (23–65535); nil uses what the link negotiated.
    public var mtu: Int?
    /// Pair before use when the device is not paired yet (an existing bond is used as it is).
    /// A ``passkey`` or ``acceptsAnyNumber`` pairs too.
    public var pair: Bool
    /// The passkey (0–999999) to enter when the device asks for one: the one it displays, or its
    /// fixed passkey. Without it the ``interaction`` is asked.
    public var passkey: UInt32?
    /// Accept the number of a numeric comparison without asking anyone. This gives up the
    /// protection against a man in the middle that the comparison exists for.
    public var acceptsAnyNumber: Bool
    /// Who is asked for a passkey or a confirmation, and shown a passkey to type on the device;
    /// nil asks no one (only Just Works, ``passkey`` and ``acceptsAnyNumber`` can then succeed).
    public var interaction: (any BLEPairingInteraction)?
    /// The time for the whole connection: finding the device (scanning while it does not
    /// advertise yet), pairing, connecting, resolving services and enabling notifications.
    public var timeout: Duration
    /// The bus bluetoothd is on.
    public var busAddress: String

    /// Whether opening the link pairs an unpaired device.
    var pairs: Bool { pair || passkey != nil || acceptsAnyNumber }

    /// Creates options; the timeout defaults to 30 s and the interaction to the front end's
    /// (``BLEPairingInteractions/frontEnd``).
    public init(
        adapter: String? = nil, mtu: Int? = nil, pair: Bool = false, passkey: UInt32? = nil, acceptsAnyNumber: Bool = false,
        interaction: (any BLEPairingInteraction)? = BLEPairingInteractions.frontEnd, timeout: Duration = .seconds(30),
        busAddress: String = DBusClient.systemBusAddress
    ) {
        self.adapter = adapter
        self.mtu = mtu
        self.pair = pair
        self.passkey = passkey
        self.acceptsAnyNumber = acceptsAnyNumber
        self.interaction = interaction
        self.timeout = timeout
        self.busAddress = busAddress
    }
}
