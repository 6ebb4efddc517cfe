/// Names in BlueZ's D-Bus API (doc/org.bluez.*.rst).
enum BlueZ {
    static let service = "org.bluez"
    static let root = "/"
    static let agentManagerPath = "/org/bluez"

    static let objectManager = "org.freedesktop.DBus.ObjectManager"
    static let properties = "org.freedesktop.DBus.Properties"
    static let adapter = "org.bluez.Adapter1"
    static let device = "org.bluez.Device1"
    static let gattService = "org.bluez.GattService1"
    static let gattCharacteristic = "org.bluez.GattCharacteristic1"
    static let agentManager = "org.bluez.AgentManager1"

    /// The SMP GATT service, as BlueZ spells UUIDs (lower case).
    static let smpServiceUUID = "8d53dc1d-1db7-4cd3-868b-8a527460aa84"
    /// The SMP characteristic.
    static let smpCharacteristicUUID = "da2e7828-fbce-4e01-ae9e-261174997c48"
}
