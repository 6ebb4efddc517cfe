import SMPKit

/// Who a device is, as far as the host can tell: what a report prints, and what finds the device
/// again after a reset re-enumerates it.
public struct DeviceIdentity: Sendable, Hashable {
    /// The USB serial number, for a serial port of a USB device.
    public var serialNumber: String?
    /// Where on the USB tree the device is plugged, e.g. `1-1.2` (sysfs' port path).
    public var usbPath: String?
    /// The address: a device node (`/dev/ttyACM0`), `host:port`, `tcp://host:port` or a BLE address.
    public var address: String?

    /// Creates an identity from what is known.
    public init(serialNumber: String? = nil, usbPath: String? = nil, address: String? = nil) {
        self.serialNumber = serialNumber
        self.usbPath = usbPath
        self.address = address
    }
}

/// One device among many: a name for people, how to reach it (with its own link options, such as
/// a profile's timeout and retries), and who it is.
public struct DeviceTarget: Sendable, Hashable {
    /// The name shown in the live view and the report: a label from a targets file, else the
    /// serial number, else the address, else the connection string.
    public var name: String
    /// How to reach the device; its options (timeout, retries, MTU…) apply to this device alone.
    public var connection: ConnectionString
    /// Who the device is.
    public var identity: DeviceIdentity

    /// Creates a target; without a `name`, it is named by its identity or connection string.
    public init(name: String? = nil, connection: ConnectionString, identity: DeviceIdentity = DeviceIdentity()) {
        self.name = name ?? identity.serialNumber ?? identity.address ?? connection.description
        self.connection = connection
        self.identity = identity
    }
}
